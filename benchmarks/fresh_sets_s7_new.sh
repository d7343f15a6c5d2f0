#!/bin/bash
# Fresh code sets in languages never measured before session 7, dev + held-out, up to 60 tasks
# a split: R and Erlang, which have no tree-sitter wheel on PyPI, so the builder finds their
# functions with a scanner of its own (`lang_unparsed.py`), never with the engine's; MATLAB, whose
# functions the builder finds with `tree-sitter-matlab` (the `bench` extra; `lang_matlab.py`). Every
# project is one no earlier set used, several per language so that no one project is most of a
# split (a split takes at most 3 tasks a file, from files of 300 to 4000 lines):
#   R (each package's R/ folder, roxygen-documented): rlang, vctrs, cli, httr2, testthat (r-lib),
#     dplyr, tidyr, purrr, readr (tidyverse), shiny, recipes (tidymodels), mlr3.
#   Erlang (each project's src/): cowboy and gun (ninenines), rebar3 (apps/rebar/src, its
#     vendored copies out), ejabberd, riak_core (basho), ra (rabbitmq).
#   MATLAB: Chebfun (most of the split: the others' functions sit one to a short file), YALMIP
#     (@sdpvar, extras, modules, operators, solvers), matGeom (its toolbox), export_fig. Chebfun is
#     exported without dev/, tests/ and examples/ (`git archive <sha> -- . ':!dev' ':!tests'
#     ':!examples'`: a data file under dev/ is missing from the snapshot), then copied whole.
# Usage (GHDIR holds the GitHub trees, exported as below; WORKDIR is scratch, emptied per language):
#       PY=/path/to/.venv/bin/python bash benchmarks/fresh_sets_s7_new.sh GHDIR WORKDIR OUTDIR [LANG...]
# GitHub trees are not fetched here: bring each snapshot with the search tool's `fetch`
# (github:OWNER/NAME) and export the folders listed below at the commit listed into
# GHDIR/OWNER+NAME (`git --git-dir=… archive <sha> <folders> | tar -x -C GHDIR/OWNER+NAME`).
# Trees are cut by whole folders, never by a score; the builder skips any path with "test",
# "spec" or "fuzz" besides. Reproducible byte for byte: run twice into two OUTDIRs and `cmp` them.
set -euo pipefail
GH=$1; W=$2; OUT=$3; shift 3; LANGS=${*:-r erlang matlab}
B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
# shellcheck source=benchmarks/fresh_trees.sh
. "$B/fresh_trees.sh"
# OWNER+NAME  commit  language  folders kept
TREES="r-lib+rlang d0e9d81baa937ba7a4cf981dd027229b0229c096 r R
r-lib+vctrs b5c089433f7e372e77b34861de58c72bbad9c996 r R
r-lib+cli 2e112bc40016cf8bfe6a6b739ed17e4ef243bf91 r R
r-lib+httr2 bdfff989823e4ae9ff83cd532798d9d7ecc1089f r R
r-lib+testthat 4b13712bb08bbcf19e3b5265e95218043c3d528e r R
tidyverse+dplyr d5e94e7fa8fd4a5f79c1a707d1842216bb4c691f r R
tidyverse+tidyr 7d247650b1702b355f4d65453effe2588aabb8d4 r R
tidyverse+purrr cb3afbac54ad3635feaf827d6ed14ea63d2e6481 r R
tidyverse+readr 238ea873fdc1a34b3638f01493bd8df9f770ac62 r R
rstudio+shiny d19095f4b3dd2b699406db2693c487fb38bd2d4a r R
tidymodels+recipes 45acd48ab1f936950a2ca798048d75e78b4fa2c4 r R
mlr-org+mlr3 c5f8cd7010fb5857a23255789b9376d5620c6bcb r R
ninenines+cowboy 5c8535f409aa2fd49deb355e8ee43d5c06eb1c90 erlang src
ninenines+gun 4b8ed819632d62a804d5d69aa15495d5c97ff489 erlang src
erlang+rebar3 e8147e32210ad864966a718d148db163c7830f72 erlang apps/rebar/src
processone+ejabberd 61bf7a9cc9727f48f8069bb88b6253165065a121 erlang src
basho+riak_core 25d9a6fa917eb8a2e95795d64eb88d7ad384ed88 erlang src
rabbitmq+ra 78c4ec8867358be86163092f73bc47f5b9edeac3 erlang src
chebfun+chebfun 7574c77680d7e82b79626300bf255498271a72df matlab .
yalmip+YALMIP 88913ea2b1de4a3471d40a0c4ed796191b61a2f6 matlab @sdpvar extras modules operators solvers
mattools+matGeom e73f446c36f752ad0038cb7263e78c3b96813946 matlab matGeom
altmany+export_fig 4e69d7443f0b4190f8ba66ff2183e8a7de9ba971 matlab ."
mkdir -p "$OUT"
for lang in $LANGS; do
    L=${W:?}/$lang; rm -rf "$L"; mkdir -p "$L"
    copy_trees "$TREES" "$lang" "$GH" "$L"
    if [ "$lang" = erlang ]; then rm -rf "$L/erlang+rebar3/apps/rebar/src/vendored"; fi
    $PY "$B/lang_sets.py" --lang "$lang" --src "$L" --out "$OUT" --n 60
done
