#!/bin/bash
# Fresh code sets in languages never measured before session 8, dev + held-out, up to 60 tasks a
# split: Clojure, Visual Basic .NET and Pascal (Delphi / Free Pascal). Clojure and VB.NET have no
# tree-sitter wheel on PyPI; Pascal's grammar is not used, so that the engine's units are judged
# against a reading it did not make: the builder finds all three languages' definitions and docs
# with a scanner of its own (`lang_scanned.py`). Every project is one no earlier set used,
# several per language so that no one project is all of a split (a split takes at most 3 tasks a
# file, from files of 300 to 4000 lines):
#   Clojure (docstrings): Clojure's own library (src/clj), ClojureScript's compiler and library,
#     core.async, malli, Ring, DataScript, Leiningen, Overtone.
#   VB.NET (`'''` XML docs): DWSIM's thermodynamics, unit operations and math libraries, Mono's
#     Visual Basic compiler and runtime (mono-basic), the .NET analyzers' Visual Basic parts,
#     WinForms' Microsoft.VisualBasic.Forms, sciBASIC's graph and data frame libraries (two of its
#     folders: the whole of it would be most of the split).
#   Pascal (the comment directly above a routine in an implementation section): Double Commander
#     (src), HeidiSQL (source), mORMot 2 (src), Free Pascal's FCL packages (base, json, xml,
#     passrc, process, web, db).
# Usage (GHDIR holds the GitHub trees, exported as below; WORKDIR is scratch, emptied per language):
#       PY=/path/to/.venv/bin/python bash benchmarks/fresh_sets_s8_new.sh GHDIR WORKDIR OUTDIR [LANG...]
# GitHub trees are not fetched here: bring each snapshot with the search tool's `fetch`
# (github:OWNER/NAME) and export the language's files (.clj/.cljc/.cljs, .vb, .pas/.pp) of the
# folders listed below at the commit listed into GHDIR/OWNER+NAME (some snapshots lack a large
# binary, which stops a whole-folder `git archive`; the builder reads no other file anyway):
#   git --git-dir=G ls-tree -r --name-only SHA -- FOLDERS | grep -E 'EXT$' | tr '\n' '\0' |
#     xargs -0 git --git-dir=G archive SHA -- | tar -x -C GHDIR/OWNER+NAME
# Trees are cut by whole folders, never by a score; the builder skips any path with "test",
# "spec", "example" or "fuzz" besides. Reproducible byte for byte: run twice into two OUTDIRs and
# `cmp` them.
set -euo pipefail
GH=$1; W=$2; OUT=$3; shift 3; LANGS=${*:-clojure vbnet pascal}
B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
# shellcheck source=benchmarks/fresh_trees.sh
. "$B/fresh_trees.sh"
# OWNER+NAME  commit  language  folders kept
TREES="clojure+clojure 58b075eca85dd94111b90157f94947f649a5ba4d clojure src/clj
clojure+clojurescript 7ab3bc777a6d0ec38cb886461dc21a71db7b827a clojure src/main
clojure+core.async 258748cc8a7712da01b68bd6a58ec117632d445e clojure src/main
metosin+malli e0240dc1fd1cb2a63e0a04528eb4e82b68ce8c8c clojure src
ring-clojure+ring 75914ca942330ae6f8499b0ab9adda4664ad5f1b clojure ring-core/src ring-devel/src ring-jetty-adapter/src ring-servlet/src
tonsky+datascript 100ab864f55e056df5837e77d44dfd0f8a447983 clojure src
technomancy+leiningen 24fb93936133bd7fc30c393c127e9e69bb5f2392 clojure src leiningen-core/src
overtone+overtone eb531784b32737b90a44576b169934c3553d817d clojure src
DanWBR+dwsim ffd395a2a0a520a7d6b5e7dbd91c5f341fadc1bc vbnet DWSIM.Thermodynamics DWSIM.UnitOperations DWSIM.Math DWSIM.SharedClasses
mono+mono-basic bdb5276f7d85100e8e9ddd7e5ba2360a792644a9 vbnet vbnc/vbnc vbruntime/Microsoft.VisualBasic
dotnet+roslyn-analyzers d45048f958379c63acfc716136a5e2466f21c5d4 vbnet src
dotnet+winforms 2278c7fbbc460c8030f1ed236e44a09219f2fa57 vbnet src/Microsoft.VisualBasic.Forms
xieguigang+sciBASIC 226c8ef98612f15e382df482629799dc4157b6d1 vbnet Data_science/Graph Data/DataFrame
doublecmd+doublecmd c7bac62ed1019e7ebb063e55abc2e49c2ad6e1bd pascal src
HeidiSQL+HeidiSQL 152ab70df6354f9749feffab976a32424abcd196 pascal source
synopse+mORMot2 b900affa22c876b255f8db80bd4af9e2d38dee34 pascal src
fpc+FPCSource 1dba64b372152be61b4c9b289b0b5f2286f0f4ab pascal packages/fcl-base packages/fcl-json packages/fcl-xml packages/fcl-passrc packages/fcl-process packages/fcl-web packages/fcl-db"
mkdir -p "$OUT"
for lang in $LANGS; do
    L=${W:?}/$lang; rm -rf "$L"; mkdir -p "$L"
    copy_trees "$TREES" "$lang" "$GH" "$L"
    $PY "$B/lang_sets.py" --lang "$lang" --src "$L" --out "$OUT" --n 60
done
