#!/bin/bash
# Session 5's code sets for six languages the engine has no grammar for, so that their code is
# read by the language-independent heuristics (`code_blocks.py`): F#, Solidity, Groovy, Fortran,
# PowerShell, Common Lisp (dev + held-out, 60 tasks a split each). Different families: an ML with
# indented bodies, a C-like contract language, a JVM language with closures, an `end`-closed
# numeric language, a shell, a Lisp. Their grammars are the builder's only (the `bench` extra);
# the doc comments are found by `lang_others.py` (`///` XML docs, NatSpec, Groovydoc, FORD/Doxygen
# `!>` and plain `!` comments, PowerShell comment-based help, Lisp docstrings).
#   F#: FSharpPlus, FSharp.Data, Giraffe, FSharp.Stats, FSharpx.Extras, Hedgehog.
#   Solidity: OpenZeppelin Contracts, solmate, Uniswap v3 and v4 cores, Safe, Compound, Aave v3, ERC-4337's.
#   Groovy: Nextflow, Groovy's own subprojects, Grails, Job DSL, CodeNarc, Geb, JenkinsPipelineUnit.
#   Fortran: fpm, stdlib, json-fortran, neural-fortran, h5fortran, DFTB+, xtb.
#   PowerShell: Pester, dbatools, PowerSploit, Pode (public functions), ImportExcel.
#   Common Lisp: SBCL (code, compiler, PCL), Lem, McCLIM, SLIME's Swank, Serapeum.
#       bash benchmarks/fresh_sets_others.sh GHDIR WORKDIR OUTDIR
# GitHub trees are not fetched here: bring each snapshot with the search tool's `fetch`
# (github:OWNER/NAME) and export the folders listed below at the commit listed into
# GHDIR/OWNER+NAME (`git --git-dir=… archive <sha> <folders> | tar -x -C GHDIR/OWNER+NAME`).
# Trees are cut by whole folders, never by a score: tests, mocks and samples out; Pode's
# public functions only, so that no one project is most of a split.
set -euo pipefail
GH=$1; W=$2; OUT=$3; B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
LANGS="fsharp solidity groovy fortran powershell commonlisp"
# OWNER+NAME  commit  language  folders kept
TREES="fsprojects+FSharpPlus 0d3f93cf20c7a810bbdc7658dda1d62c8f354f4c fsharp src/FSharpPlus
fsprojects+FSharp.Data d2652b9b32803810344a6eb048a9bb3f607834fa fsharp src
giraffe-fsharp+Giraffe 18e1be3ed33e49096d565e6f48c85e3cbee51960 fsharp src/Giraffe
fslaborg+FSharp.Stats 57f8939410a549a539920d3e84722dde2ba3a896 fsharp src/FSharp.Stats
fsprojects+FSharpx.Extras 0b31162252b7d04ccefb972adb5adfb267a7bc97 fsharp src
hedgehogqa+fsharp-hedgehog a46977278db9a60542e3df3fe0fcd74b90f38ee3 fsharp src/Hedgehog
OpenZeppelin+openzeppelin-contracts fddac901ccdbdb06be90536822936ea765dd9218 solidity contracts
transmissions11+solmate 89365b880c4f3c786bdd453d4b8e8fe410344a69 solidity src
Uniswap+v4-core 59d3ecf53afa9264a16bba0e38f4c5d2231f80bc solidity src
Uniswap+v3-core d8b1c635c275d2a9450bd6a78f3fa2484fef73eb solidity contracts
safe-global+safe-smart-account c35264b99a389254a25f589c8271394ba5db7f38 solidity contracts
compound-finance+compound-protocol a3214f67b73310d547e00fc578e8355911c9d376 solidity contracts
aave+aave-v3-core 782f51917056a53a2c228701058a6c3fb233684a solidity contracts/protocol contracts/misc
eth-infinitism+account-abstraction f1c5c11b273b7ddae26bb20809419b33ccb8f043 solidity contracts/core
nextflow-io+nextflow 2aad02f65758dd5d0fb0b1c74786ad52f9d06f1a groovy modules/nextflow/src/main/groovy
apache+groovy 18257e8a15425c43ae2202211dd179832ff7c929 groovy subprojects
grails+grails-core 330054f1a11807a8065cbe267d3623a1c15d0fba groovy grails-core grails-shell grails-databinding grails-web-common grails-web-url-mappings grails-plugin-controllers grails-plugin-rest
jenkinsci+job-dsl-plugin aac2bedf678c7a59de17693f4e50d5a5db7cde5f groovy job-dsl-core/src/main/groovy
CodeNarc+CodeNarc f8eff827e2ba41e76f1045e9ea061e2cf837239f groovy src/main/groovy
geb+geb 8d9327cd407489ea3fc291752e1fe9a5b2fb0df9 groovy module/geb-core/src/main/groovy
jenkinsci+JenkinsPipelineUnit fabd23c9ec8a7ed46e0e41e818db9e329b6ce3f6 groovy src/main/groovy
fortran-lang+fpm 80b06defc4cad13dc26505d6aa12c07575446214 fortran src
fortran-lang+stdlib 9a15c7772f1a76a6c497b9f3abb793841fc81f74 fortran src
jacobwilliams+json-fortran a012a4dc5c6f69b736157d70e45ba7820c5bd23f fortran src
modern-fortran+neural-fortran 91819e3c93db58707842c017f40d2329f844ac98 fortran src
geospace-code+h5fortran 5db3c2efc6425a2219cfb3c1365fcc206b807cfd fortran src
dftbplus+dftbplus a3ccbcc95f38d4a0f1dc941bebfb881767060c16 fortran src/dftbp
grimme-lab+xtb 2b5cd4829290775e575807daee21560f851ff7e1 fortran src
pester+Pester ec8ca45bc782a055cf3c87bdb60a497f5a77536f powershell src
dataplat+dbatools ad86b331bfaff1b6dae2e1bf1f43229b89c96f3a powershell public private/functions
PowerShellMafia+PowerSploit d943001a7defb5e0d1657085a77a0e78609be58f powershell Recon Exfiltration CodeExecution Privesc ScriptModification Persistence AntivirusBypass Mayhem
Badgerati+Pode e5126e6c3a504d96d635d7587d73fa3bf1c41ae8 powershell src/Public
dfinke+ImportExcel 5387c061461c811d106b125588f064c4739342cb powershell Public Private
sbcl+sbcl 0f6128e4a6faf774cc10ee1fe9da9bffdd29857f commonlisp src/code src/compiler src/pcl
lem-project+lem 492312e47ba6e46a327ea3e074ccbf5cc39666a3 commonlisp src extensions
McCLIM+McCLIM c5bc6cb7f03ce0d77211403642caa1e3e8f963d0 commonlisp Core Libraries/Drei
slime+slime ec7d59f50007cf899ebe7539a639bdb88392baf4 commonlisp swank.lisp swank contrib
ruricolist+serapeum ff930b64089428ede1cc31d723b662734dfe70a9 commonlisp ."
L=${W:?}/lang; rm -rf "$L"; mkdir -p $OUT
while read -r proj _sha lang folders; do
    for f in $folders; do mkdir -p $L/$lang/$proj/$(dirname $f); cp -r $GH/$proj/$f $L/$lang/$proj/$f; done
done <<< "$TREES"
for lang in $LANGS; do
    $PY $B/lang_sets.py --lang $lang --src $L/$lang --out $OUT --n 60
done
