#!/bin/bash
# Fresh code sets for the next session in the three languages below target on session 7's
# held-out halves (Fortran 0.82, R 0.82, MATLAB 0.77), dev + held-out, up to 60 tasks a split.
# Every project is one no earlier set used (see the tables of fresh_sets_*.sh and lang_*.py),
# several per language so that no one project is all of a split (a split takes at most 3 tasks a
# file, from files of 300 to 4000 lines; a task needs a doc comment directly above its procedure):
#   Fortran: NCEP's GRIB2 (NCEPLIBS-g2, most of the held-out half) and interpolation (NCEPLIBS-ip)
#     libraries' src/, GFDL's FV3 dynamical core (GFDL_atmos_cubed_sphere: model, tools), the
#     ParallelIO library's Fortran API (src/flib).
#   R (each package's R/ folder; R has no tree-sitter wheel, `lang_unparsed.py` finds its
#     functions): lintr, usethis, pkgdown, roxygen2, devtools, fs (r-lib), lubridate, tibble
#     (tidyverse). The held-out half has fewer than 60 tasks: few of these files are both long
#     enough and roxygen-documented.
#   MATLAB (`lang_matlab.py`, tree-sitter-matlab): Peter Corke's Robotics Toolbox (about two
#     thirds of each split: its classes are long files) and Spatial Math Toolbox, OptimTraj. The
#     Robotics Toolbox is exported without data/, doc/ and private/ (`git archive <sha> -- .
#     ':!data' ':!doc' ':!private'`: files there are missing from the snapshot), then copied whole.
# Usage (GHDIR holds the GitHub trees, exported as below; WORKDIR is scratch, emptied per language):
#       PY=/path/to/.venv/bin/python bash benchmarks/fresh_sets_s8.sh GHDIR WORKDIR OUTDIR [LANG...]
# GitHub trees are not fetched here: bring each snapshot with the search tool's `fetch`
# (github:OWNER/NAME) and export the folders listed below at the commit listed into
# GHDIR/OWNER+NAME (`git --git-dir=… archive <sha> <folders> | tar -x -C GHDIR/OWNER+NAME`).
# Trees are cut by whole folders, never by a score; the builder skips any path with "test",
# "spec" or "fuzz" besides. Reproducible byte for byte: run twice into two OUTDIRs and `cmp` them.
set -euo pipefail
GH=$1; W=$2; OUT=$3; shift 3; LANGS=${*:-fortran r matlab}
B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
# shellcheck source=benchmarks/fresh_trees.sh
. "$B/fresh_trees.sh"
# OWNER+NAME  commit  language  folders kept
TREES="NOAA-EMC+NCEPLIBS-g2 48118b28146d3e51c0134387e3c5342dd822c6a4 fortran src
NOAA-EMC+NCEPLIBS-ip 69675454cc7db4b4c10b4c0cb80536c2049d0429 fortran src
NOAA-GFDL+GFDL_atmos_cubed_sphere 73e286963e7f453a6317bbcc2b891b310d8218a8 fortran model tools
NCAR+ParallelIO 6cde06741bf1a774ff5f8b7095025c71a5be19c4 fortran src/flib
r-lib+lintr 1f61f0cf9ae28f83e5cf162c9d29be858c8b6682 r R
r-lib+usethis 5f60819dc5dee7071d6e67cfa1fd934bb665466c r R
r-lib+pkgdown f3ec6e2bb122e10436eccda7b221e297ab9d395a r R
r-lib+roxygen2 e74d5565018369c123de5fd5eedaa42e11d9bb7a r R
r-lib+devtools 04a24d6da9e655d39400253364a00be53ee0cffa r R
r-lib+fs 81211aafd4cf968f942101e84ec6d835c1cb3e8a r R
tidyverse+lubridate 8e9f2b289ee8384d9499e2527fb1e449c97e5370 r R
tidyverse+tibble 7dfdcd9ee31e3f26fd69cac4fd72f5ef2ba9af87 r R
petercorke+robotics-toolbox-matlab bd7a9d75176c660f43fc799b24d838f70b02250c matlab .
petercorke+spatialmath-matlab 6eeff4a79f14286705560b84f1fe72e0b7e0e7f7 matlab .
MatthewPeterKelly+OptimTraj 27bcf50697a0a8ec95fbe729b418d0fd72b66f3b matlab ."
mkdir -p "$OUT"
for lang in $LANGS; do
    L=${W:?}/$lang; rm -rf "$L"; mkdir -p "$L"
    copy_trees "$TREES" "$lang" "$GH" "$L"
    $PY "$B/lang_sets.py" --lang "$lang" --src "$L" --out "$OUT" --n 60
done
