#!/bin/bash
# Session 6's fresh code sets for the eight languages below target on session 5's held-out
# halves: OCaml, Perl, Scala, F#, Fortran, Groovy, PowerShell, Solidity (dev + held-out, 60 tasks
# a split; Groovy's dev half has 59: in long files few Groovy methods have a Groovydoc the
# grammar reads without error). Every project is one no earlier set used, of different authors and
# styles, several per language so that no one project is most of a split:
#   OCaml: an editor service (Merlin), an LSP server, Jane Street's Core, a proof assistant's
#     kernel (Rocq), a static analyser (Infer's Pulse), an SMT solver (Alt-Ergo), a compiler
#     written in OCaml (Haxe's typer), a Git-like store (Irmin), odoc, ppxlib.
#   Perl (Debian bookworm packages): BioPerl's sequence formats and tools, Perl::Critic, PPI,
#     Catalyst, SQL::Translator, POE, SOAP::Lite, HTML::Mason, Config::Model, Net::SNMP,
#     XML::Twig, ikiwiki, WWW::Mechanize, HTML::FormHandler, Spreadsheet::ParseExcel,
#     Module::Build, AnyEvent.
#   Scala: cats-effect, fs2, http4s, Slick, scalafmt, Monix, Twitter's util.
#   F#: Paket, FsCheck, Fantomas, FsToolkit.ErrorHandling, FsAutoComplete, Fable's compiler
#     (not its vendored fcs-fable), Saturn, FSharp.Control.AsyncSeq, Argu.
#   Fortran: an ocean model (MOM6) and its infrastructure (FMS), a wind-turbine simulator
#     (OpenFAST), a finite-element solver (Elmer), weather physics (CCPP), Quantum ESPRESSO's
#     modules and post-processing, tblite, toml-f, an astrodynamics toolkit, bspline-fortran.
#   Groovy: GORM (grails-data-mapping, its Hibernate 5 and MongoDB stores: GORM is not the
#     grails-core an earlier set used), the Asciidoctor and Kordamp Gradle plugins, nebula's lint
#     plugin, SmartThings' apps and device handlers, the Moqui framework, Spinnaker's orca and
#     clouddriver, Netflix's Asgard, GPars, asset-pipeline, Lazybones, GMetrics.
#   PowerShell: SqlServerDsc, ComputerManagementDsc, AutomatedLab, PoshBot, psake, nishang,
#     Chocolatey's helpers, PowerShellForGitHub, PowerCLI's example modules, AzureStack-Tools,
#     Scoop, posh-git, PSFzf, Posh-SecMod.
#   Solidity: Solady, Balancer v2, Maker's dss, ENS, Morpho Blue, EigenLayer, Arbitrum's Nitro
#     contracts, Optimism's contracts-bedrock.
#       bash benchmarks/fresh_sets_s6.sh GHDIR WORKDIR OUTDIR [LANG...]
# GitHub trees are not fetched here: bring each snapshot with the search tool's `fetch`
# (github:OWNER/NAME) and export the folders listed below at the commit listed into
# GHDIR/OWNER+NAME (`git --git-dir=… archive <sha> <folders> | tar -x -C GHDIR/OWNER+NAME`;
# AzureStack-Tools' snapshot lacks some binaries: export its `:(glob)**/*.ps1` and
# `:(glob)**/*.psm1` files). Perl's packages are downloaded with `apt-get download` (bookworm's
# archive) at the versions below. Trees are cut by whole folders, never by a score: tests, mocks,
# samples, benchmarks and vendored copies out (Merlin's src/ocaml, a copy of the compiler's
# typing an earlier set used); the builder skips any path with "test", "spec" or "fuzz" besides.
# Reproducible byte for byte: run twice into two OUTDIRs and `cmp` them.
set -euo pipefail
GH=$1; W=$2; OUT=$3; shift 3; LANGS=${*:-ocaml perl scala fsharp fortran groovy powershell solidity}
B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
# shellcheck source=benchmarks/fresh_trees.sh
. "$B/fresh_trees.sh"
# OWNER+NAME  commit  language  folders kept
TREES="ocaml+merlin a4bba1b2fe02536ca0881ea4006549f081a0c21f ocaml src/analysis src/kernel src/frontend src/utils
ocaml+ocaml-lsp 83aaf09e353c90beda97f3c1ca8a0b6947d0e148 ocaml ocaml-lsp-server/src lsp/src
janestreet+core 3998718a19af8b148bc1864c24ca37198e6d3820 ocaml core/src
rocq-prover+rocq 9b9978d3558e1d4d18e358deba1f7a125ccdca55 ocaml kernel pretyping
facebook+infer be1b9a8dc1b0f8d2aac29136f5812d117da5fcd9 ocaml infer/src/pulse
OCamlPro+alt-ergo 35c0f1489ded7678c4510948a6d8f7bb20bd397f ocaml src/lib
HaxeFoundation+haxe 912550d604027b60e41fc5b2f095293363e856e8 ocaml src/typing src/core src/context src/optimization
mirage+irmin 7a09a06fff67bc4981faca36a332c51fc16e819e ocaml src/irmin src/irmin-pack
ocaml+odoc 1c3102cabfffc2ca1bacebec5d95a77af88f28e1 ocaml src/xref2 src/model src/document src/loader src/odoc
ocaml-ppx+ppxlib 06cb2ad3e41538344363e72804fbe551ea85ae9b ocaml src ast
typelevel+cats-effect 28e774e8e3dba052555271d6fac21bcd3c71f757 scala core/shared/src/main kernel/shared/src/main std/shared/src/main
typelevel+fs2 8f3ae75ab38e061031d7a4daaf5277af29b40cb0 scala core/shared/src/main io/shared/src/main
http4s+http4s 95ece6c737c835587caf14658dee22862f46a28d scala core/shared/src/main server/shared/src/main client/shared/src/main ember-core/shared/src/main ember-server/shared/src/main
slick+slick 5406caa21da57ab0dd40840082e59903a4afc051 scala slick/src/main
scalameta+scalafmt b02c1a0dc0dd047b66a10c165342d85ce601be73 scala scalafmt-core/shared/src/main
monix+monix 68afc6b63974bb9f25b9bf0608b7e5f4112c4850 scala monix-eval/shared/src/main monix-reactive/shared/src/main monix-execution/shared/src/main monix-tail/shared/src/main monix-catnap/shared/src/main
twitter+util 17c8187d948846756fabcdbb2ff6838b3665968b scala util-core/src/main util-app/src/main util-logging/src/main util-stats/src/main util-cache/src/main
fsprojects+Paket 3b63da856fa6d6f441d43b9dc2aa64e6ad10fe62 fsharp src/Paket.Core
fscheck+FsCheck 4bcc1d8f172f649f806d124827c7b56e6a8e3980 fsharp src/FsCheck
fsprojects+fantomas 01d1070bc265a3b7cb8dd9047bc1feace1d28105 fsharp src/Fantomas.Core
demystifyfp+FsToolkit.ErrorHandling a7119caabe329817bee49d7094610c45db7725c1 fsharp src/FsToolkit.ErrorHandling
ionide+FsAutoComplete fda731b31f6452a75de0558f376aa26c737f0c24 fsharp src/FsAutoComplete src/FsAutoComplete.Core
fable-compiler+Fable caad0f76a563616842358aaa7bbae4124bb23d26 fsharp src/Fable.Transforms
SaturnFramework+Saturn 4ae4d6126a6c7c0e91bded2ddbe1103030010c78 fsharp src/Saturn
fsprojects+FSharp.Control.AsyncSeq 31b09233f4266accae552901611240be13931acc fsharp src/FSharp.Control.AsyncSeq
fsprojects+Argu 8dcad5bab1f49dd1eaac77ef9895daa0c9ca5744 fsharp src/Argu
NOAA-GFDL+MOM6 f21e9ea656dad8ea9dabfb2b295a2c59a75d6923 fortran src/core src/parameterizations src/ALE src/framework
NOAA-GFDL+FMS 44edc8db82f58b936b1340e491f873768dfc136b fortran time_manager diag_manager fms2_io mpp horiz_interp interpolator data_override field_manager
toml-f+toml-f f9ff54793b2d1a3edca7d6890548d18d48c98e36 fortran src
tblite+tblite 91756528e336b3b679dd1a4fd7528603719f760e fortran src
jacobwilliams+Fortran-Astrodynamics-Toolkit ab8d9c017835d3f52bd691835bd4e8ad10da8467 fortran src
jacobwilliams+bspline-fortran 504ac35a90ff1391d1932f6b2ffb41b55936fac4 fortran src
QEF+q-e ddbec46536cc9c6f8cf3cd9db486573bcc5424a4 fortran Modules PP/src
OpenFAST+openfast 2895884d2be01862173c88d70f86b358d2f1a50a fortran modules/nwtc-library modules/aerodyn modules/hydrodyn modules/inflowwind modules/servodyn
ElmerCSC+elmerfem 7daef97f4f761b20fc45aca8a2d05b708df873a8 fortran fem/src
NCAR+ccpp-physics 0e7927989af86a9e2ea8180cc2d0585eb679b4c8 fortran physics
Netflix+asgard 648102625a4b6d2c3669b7837c2a5768c20b16a3 groovy src/groovy grails-app/services grails-app/controllers
nebula-plugins+gradle-lint-plugin 2be7a8c76c533ef3dd0f177c04fa96b02da9eb3e groovy src/main/groovy
grails+grails-data-mapping ceeb6fe544496ef22da05a689336d3c2867d1d1e groovy grails-datastore-gorm/src/main grails-datastore-gorm-rx/src/main grails-datastore-core/src/main grails-datastore-gorm-validation/src/main
grails+gorm-hibernate5 4914962ef4ebc24467a8aab576fdbd589bc5a0c3 groovy grails-datastore-gorm-hibernate5/src/main
grails+gorm-mongodb 9de950f8c2455dbe26ec63b87eeee33e68af4783 groovy grails-datastore-gorm-mongodb/src/main grails-datastore-gorm-bson/src/main
asciidoctor+asciidoctor-gradle-plugin d969307023d3a6567a70f549f406f28dd23e962c groovy base/src/main jvm/src/main jvm-slides/src/main slides-export/src/main js/src/main
SmartThingsCommunity+SmartThingsPublic eb3cee1775bc55148813909aa9e891631de1e2e8 groovy smartapps devicetypes
moqui+moqui-framework 2f1de53ee33055b17e71f83629305610da8a7250 groovy framework/src/main
kordamp+kordamp-gradle-plugins d2f505b2ad954f74b5ed764d0b7a67e3e4d0edf5 groovy plugins
bertramdev+asset-pipeline 905f3992c83c2193954348e2feefc14bb016c7ea groovy asset-pipeline-core/src/main
pledbrook+lazybones 377caef833b067f657170379a306f8be1415167a groovy lazybones-app/src/main
spinnaker+clouddriver 2f5e98f0320a672ab2692a7ffc6841e4bc57cfa9 groovy clouddriver-google/src/main clouddriver-aws/src/main clouddriver-azure/src/main
dx42+gmetrics d10ee7652d0622ecac39396de12d7984a3e60b95 groovy src/main/groovy
GPars+GPars 7cddf7cf2fec1fd66ef800edccfc03315d078a2b groovy src/main/groovy
spinnaker+orca 2fdb327a9f67345c4919e1503ff5119fa3c31caf groovy orca-clouddriver/src/main orca-core/src/main orca-front50/src/main orca-bakery/src/main
dsccommunity+SqlServerDsc 56ff0ad5a5dbc109c93c5424a3b163b7aff6137b powershell source
AutomatedLab+AutomatedLab 8c3d8a9ac81ef9a32c2a1bbad57e4294cbc0db5d powershell AutomatedLabCore AutomatedLabWorker AutomatedLabDefinition AutomatedLabUnattended
poshbotio+PoshBot 0eb5d3360ff34bf653fe8ed7b479f03a3ef19597 powershell PoshBot
psake+psake 3b1ab161e6a5ae32e88d7b858f30c624bf758e57 powershell src
samratashok+nishang d87229d2112456470ad30a50edbf312463f2b09a powershell .
chocolatey+choco 219b4e883b3f45c6e34b4f6ac8f20870c258bead powershell src/chocolatey.resources
dsccommunity+ComputerManagementDsc 17e10f3b5c778db2c5cde0848888ca8fbe3af2a5 powershell source
microsoft+PowerShellForGitHub fd4fa65f23ca30f18f85312a85348e660c287a9c powershell .
vmware+PowerCLI-Example-Scripts 9f98501e9f0baff1b91072247ddf0a0ea3355c97 powershell Modules
Azure+AzureStack-Tools 72dae15c0b869940370e798210e26fc956943df4 powershell CapacityManagement CloudCapabilities ConfidentialComputing Connect DatacenterIntegration Deployment HCI Identity InfrastructureBackupValidator Policy Registration Support TemplateValidator Usage
ScoopInstaller+Scoop b588a06e41d920d2123ec70aee682bae14935939 powershell lib libexec
dahlbyk+posh-git bbc5ac380018239e0ac70411a59f4e367ca87f2d powershell src
kelleyma49+PSFzf e2abd8b7adec708c27955070e3df5ac65ef9c938 powershell .
darkoperator+Posh-SecMod a4b7f5039c98ed270e5d20c1081d44b5a387e3c2 powershell .
Vectorized+solady ab96a830e705de13e0f58cfaefadab4ac8257655 solidity src
balancer+balancer-v2-monorepo 316ded078ddc2f1b28da5804d25752af67453435 solidity pkg/vault/contracts pkg/pool-weighted/contracts pkg/pool-stable/contracts pkg/pool-utils/contracts pkg/solidity-utils/contracts pkg/liquidity-mining/contracts
makerdao+dss fa4f6630afb0624d04a003e920b0d71a00331d98 solidity src
ensdomains+ens-contracts 5421b5689e695531dc9739f0ad861839bdd231cb solidity contracts
morpho-org+morpho-blue 3085651a79553bbabbfd8be309c262dab45b686e solidity src
Layr-Labs+eigenlayer-contracts f84a5151080cdf0b77b9b6e46506cde723d06c28 solidity src/contracts
OffchainLabs+nitro-contracts 67487333202561b74492d07de62a4f56be28560e solidity src
ethereum-optimism+optimism d317e96c2add4a4e7fae72d6637ad241457f16c7 solidity packages/contracts-bedrock/src"
# Perl: Debian bookworm's packages at these versions, each one's module tree (BioPerl's sequence
# formats and tools only: the whole of it would be most of a split).
DEBS="libbio-perl-perl=1.7.8-1 libperl-critic-perl=1.148-1 libppi-perl=1.276-1
 libcatalyst-perl=5.90130-1 libsql-translator-perl=1.62-3 libpoe-perl=2:1.3700-1
 libsoap-lite-perl=1.27-3 libhtml-mason-perl=1:1.59-2 libconfig-model-perl=2.152-1
 libnet-snmp-perl=6.0.1-7 libxml-twig-perl=1:3.52-2 ikiwiki=3.20200202.3-1
 libwww-mechanize-perl=2.16-1 libhtml-formhandler-perl=0.40068-2
 libspreadsheet-parseexcel-perl=0.6500-4~deb12u1 libmodule-build-perl=0.423200-1
 libanyevent-perl=7.170-2+b3"
perl_tree() {
    local P=$1 dl=$W/perl-dl x=$W/perl-x; rm -rf "$dl" "$x"; mkdir -p "$dl" "$x"
    # shellcheck disable=SC2086
    (cd "$dl" && apt-get download $DEBS)
    for spec in $DEBS; do
        p=${spec%%=*}; mkdir -p "$x/$p" "$P/$p"; dpkg-deb -x "$dl/${p}"_*.deb "$x/$p"
        case $p in
            libanyevent-perl) cp -r "$x/$p/usr/lib/x86_64-linux-gnu/perl5/5.36/." "$P/$p/" ;;
            libbio-perl-perl) mkdir -p "$P/$p/Bio"; cp -r "$x/$p/usr/share/perl5/Bio/"{SeqIO,Tools} "$P/$p/Bio/" ;;
            *) cp -r "$x/$p/usr/share/perl5/." "$P/$p/" ;;
        esac
    done
}
mkdir -p "$OUT"
for lang in $LANGS; do
    L=${W:?}/$lang; rm -rf "$L"; mkdir -p "$L"
    copy_trees "$TREES" "$lang" "$GH" "$L"
    [ "$lang" = perl ] && perl_tree "$L"
    # PowerShellForGitHub is kept whole (its module is the repository's top folder) but for its
    # build tooling.
    [ "$lang" = powershell ] && rm -rf "$L/microsoft+PowerShellForGitHub/build"
    # The Perl rule (decided before any Perl half was built): a question comes from the sub's POD
    # (its `=head2`/`=item` entry, or a heading-less POD block above it), never from a `#` above it.
    $PY "$B/lang_sets.py" --lang "$lang" --src "$L" --out "$OUT" --n 60 --perl-doc pod
done
