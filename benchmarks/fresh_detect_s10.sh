#!/bin/bash
# Session 10's untouched check of recognising a language without a path: the source files of
# projects no earlier set used, in the languages whose no-path signs were worked on (Julia,
# Groovy, Solidity, PowerShell, F#), exported whole, then read by `detect_bench.py`. Chosen by
# language before any look at how they read: the projects of each language in the mirror store
# that no `fresh_sets_*.sh` lists, and GitHub projects fetched for the languages without one.
# Usage (the GitHub snapshots brought by the search tool's `fetch` into MIRROR/OWNER+NAME/repo):
#       PY=/path/to/.venv/bin/python bash benchmarks/fresh_detect_s10.sh MIRROR WORKDIR [sets]
set -euo pipefail
MIRROR=$1; W=$2
B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
TREES="JuliaCollections+DataStructures.jl 80de06b27fad935a014f4d673a862cfaf9152dcb jl
JuliaGraphs+Graphs.jl 356aa7213c036aa18c00d8a22ed620229b89fd7a jl
JuliaIO+JSON.jl c59e2cc682db1155bafb1221c41fd523bdf3f10a jl
foundry-rs+forge-std 257559546b763ec5fa7371fb77fef9102db86446 sol
PaulRBerg+prb-math 982c369fe95e1d2c93d2bb1fd8650becbbfb92f1 sol
Uniswap+permit2 cc56ad0f3439c502c246fc5cfcc3db92bb8b7219 sol
sablier-labs+v2-core 1c0a3290313eea636b303fc123d5369e84baac52 sol
fsprojects+FSharp.Formatting 8cf14c975499b5e5386f97d5b87454d07b3d421a fs
CompositionalIT+farmer 1df037941bf30e1a20bc58ada939d32f2a34c982 fs
fsprojects+Avalonia.FuncUI afd6b2783f106a2258eeaf3408467fe93eb134d7 fs
SAP+jenkins-library 260f7194b99f0529007b3c42ad6ad79382d9d4d5 groovy
bmuschko+gradle-cargo-plugin 12940deb48fa93e033a922db96ed3f5eb7956ad5 groovy
bmuschko+gradle-docker-plugin 202d2f88e4ab75b6d03267a7aabf7fc985ad419d groovy
hmcts+cnp-jenkins-library b093a1ef5f5c47f3a50fa0390cc35f177b45c34f groovy
jenkins-infra+pipeline-library f12167592cd90849f94816fa0658fd71286d404a groovy
Azure+AzOps cdf316c1e37fc4212c912514aa24dbea6eca89d2 ps1
BornToBeRoot+PowerShell 161344ded2fa8b1c0e997e857200f423d44d583a ps1
EvotecIT+PSSharedGoods 7af2f9aa847604664cd4e97ccd9012b45cc9ef61 ps1
PowerShell+PowerShellGet a2dac8e74603f7c9eec4a54c5e23459531751b0d ps1
PowerShell+platyPS dbdf51aa51f55236f24cc616ca36aa9107966ef1 ps1"
rm -rf "${W:?}"; mkdir -p "$W"
while read -r name sha ext; do
    git="$MIRROR/$name/repo"; mkdir -p "$W/$name"
    git --git-dir="$git" ls-tree -r --name-only "$sha" | grep -E "\\.$ext\$" | tr '\n' '\0' |
        xargs -0 git --git-dir="$git" archive "$sha" -- | tar -x -C "$W/$name"
done <<< "$TREES"
"$PY" "$B/detect_bench.py" "$W"/*
# And code task sets from the same trees (`lang_sets.py`: both splits untouched, scored without the
# path), into WORKDIR.sets, when a third argument asks for them.
if [ "${3:-}" = sets ]; then
    S=$W.sets; rm -rf "$S"; mkdir -p "$S"
    for pair in julia:jl solidity:sol fsharp:fs groovy:groovy powershell:ps1; do
        lang=${pair%%:*}; ext=${pair#*:}; src=$S/src-$lang; mkdir -p "$src"
        while read -r name _ e; do
            [ "$e" = "$ext" ] && cp -r "$W/$name" "$src/$name"  # the builder skips symlinks
        done <<< "$TREES"
        "$PY" "$B/lang_sets.py" --lang "$lang" --src "$src" --out "$S" --n 60
    done
fi
