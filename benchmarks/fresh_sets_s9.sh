#!/bin/bash
# Fresh code sets for session 9 in the two languages below target on session 8's held-out halves
# (Fortran 0.70, Visual Basic .NET 0.67), dev + held-out, up to 60 tasks a split. Every project
# is one no earlier set used (see the tables of fresh_sets_*.sh and lang_*.py), several per
# language where they give tasks (a split takes at most 3 tasks a file, from files of 300 to 4000
# lines; a task needs a doc comment directly above its procedure):
#   Fortran (`.f90`, `.F90`, `.f95` and free-form `.F`): CP2K (src/motion, src/xc: Doxygen
#     `!> \brief` docs above each procedure), the one project of both splits. Also tried, with
#     (nearly) no task: their docs follow the signature or their files are under 300 or over 4000
#     lines (SHTOOLS, netCDF-Fortran, QUADPACK, NumDiff, FLAP, Focal, dftatom, M_strings,
#     ESCOMP's CMEPS and MOSART, fortran-lang's MINPACK, NCEPLIBS-sp, -w3emc, -nemsio, UPP).
#   Fortran, a second pair of sets (`fortran2_*`, built after the first was in use): MODFLOW 6
#     (src: `!> @brief` docs).
#   VB.NET (`'''` XML docs): Community.VisualBasic (the VB runtime library in VB), EF Core's
#     Visual Basic design-time support (EFCore.VisualBasic), CSharpToVB's converter and app.
# Usage (GHDIR holds the GitHub trees, exported as below; WORKDIR is scratch, emptied per language):
#       PY=/path/to/.venv/bin/python bash benchmarks/fresh_sets_s9.sh GHDIR WORKDIR OUTDIR [LANG...]
# GitHub trees are not fetched here: bring each snapshot with the search tool's `fetch`
# (github:OWNER/NAME) and export the language's files of the folders listed below at the commit
# listed into GHDIR/OWNER+NAME (snapshots lack some large binaries, which stop a whole-folder
# `git archive`; the builder reads no other file anyway):
#   git --git-dir=G ls-tree -r --name-only SHA -- FOLDERS | grep -E 'EXT$' | tr '\n' '\0' |
#     xargs -0 git --git-dir=G archive SHA -- | tar -x -C GHDIR/OWNER+NAME
# Trees are cut by whole folders, never by a score; the builder skips any path with "test",
# "spec", "example" or "fuzz" besides. Reproducible byte for byte: run twice into two OUTDIRs and
# `cmp` them.
set -euo pipefail
GH=$1; W=$2; OUT=$3; shift 3; SETS=${*:-fortran fortran2 vbnet}
B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
# shellcheck source=benchmarks/fresh_trees.sh
. "$B/fresh_trees.sh"
# OWNER+NAME  commit  set (its language, but for a trailing 2)  folders kept
TREES="cp2k+cp2k ae513bac4f751e79b120bf8419509e980ad75ec8 fortran src/motion src/xc
MODFLOW-ORG+modflow6 a11d70399ba7cfd87b78042f930e119f991b9a82 fortran2 src
CommunityVB+Community.VisualBasic 20d2a51dfc9f342848ad134952ceaa8d79302559 vbnet Community.VisualBasic
efcore+EFCore.VisualBasic 4fc0bfc976aa59d863ed1f14426a16b7b19bd553 vbnet EFCore.VisualBasic
paul1956+CSharpToVB 5f3b2f0430c4ec9d350ac83900ee98aad66265ed vbnet CodeConverter CSharpToVB"
mkdir -p "$OUT"
for set in $SETS; do
    lang=${set%2}; L=${W:?}/$set; rm -rf "$L" "$L.out"; mkdir -p "$L"
    copy_trees "$TREES" "$set" "$GH" "$L"
    extensions=()
    [ "$lang" = fortran ] && extensions=(--extensions .f90 .F90 .f95 .F)
    $PY "$B/lang_sets.py" --lang "$lang" --src "$L" --out "$L.out" --n 60 "${extensions[@]}"
    for split in dev held; do mv "$L.out/${lang}_$split.jsonl" "$OUT/${set}_$split.jsonl"; done
done
