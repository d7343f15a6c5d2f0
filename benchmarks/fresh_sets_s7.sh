#!/bin/bash
# Fresh code sets for the next session, built at the end of session 6 and never scored: Perl and
# Fortran (0.80 on session 6's held-out halves) and PowerShell (0.85, at the edge), dev +
# held-out, 60 tasks a split. Every project is one no earlier set used (no project of
# fresh_sets_*.sh or lang_*.py), several per language so that no one project is most of a split:
#   Perl (Debian bookworm packages): Mojolicious, Template Toolkit, IO::Async, Excel::Writer::XLSX,
#     PDF::API2, Graph, libwww-perl (LWP), Rose::DB::Object, Mail::Box, Type::Tiny.
#   Fortran: a radiation scheme (ECMWF's ecRad), a sea-ice model (CICE's dynamics and shared
#     code, not its Icepack submodule), a wave model (WAVEWATCH III), a finite-element CFD code's
#     library and assembly (Fluidity), a land model (CTSM), a unit-test framework's library
#     (pFUnit's funit: its own tests out), NCEP's BUFR library, ParaMonte's Fortran library, a
#     linear-algebra library (linalg).
#   PowerShell: xPSDesiredStateConfiguration and NetworkingDsc (DSC resources), Microsoft365DSC,
#     PowerStig, AL-Go's GitHub actions, PowerShell's own build and release tools, PowerShellArsenal,
#     and, few tasks each (their functions sit one to a short file; the builder keeps files of 300
#     to 4000 lines), PSWriteHTML, PSScriptTools, PSDepend, PoshRSJob, Sampler, RamblingCookieMonster's
#     and lazywinadmin's script collections. Lability is left out: its long files are vendored
#     copies of DSC resources.
# Usage (GHDIR holds the GitHub trees, exported as below; WORKDIR is scratch, emptied per language):
#       PY=/path/to/.venv/bin/python bash benchmarks/fresh_sets_s7.sh GHDIR WORKDIR OUTDIR [LANG...]
# GitHub trees are not fetched here: bring each snapshot with the search tool's `fetch`
# (github:OWNER/NAME) and export the folders listed below at the commit listed into
# GHDIR/OWNER+NAME (`git --git-dir=… archive <sha> <folders> | tar -x -C GHDIR/OWNER+NAME`).
# Perl's packages are downloaded with `apt-get download` (bookworm's archive) at the versions
# below. Trees are cut by whole folders, never by a score: tests, samples, examples and vendored
# copies out (ecRad's ifsrrtm, AER's RRTM; PowerStig's and PowerShell's build tooling out of
# their trees but for PowerShell's `tools`); the builder skips any path with "test", "spec" or
# "fuzz" besides. Reproducible byte for byte: run twice into two OUTDIRs and `cmp` them.
set -euo pipefail
GH=$1; W=$2; OUT=$3; shift 3; LANGS=${*:-perl fortran powershell}
B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
# shellcheck source=benchmarks/fresh_trees.sh
. "$B/fresh_trees.sh"
# OWNER+NAME  commit  language  folders kept
TREES="ecmwf-ifs+ecrad 131ac980517719b7a859e3ccc117919a1d888a20 fortran radiation
ESCOMP+CICE 52cb686ad3e0801f24ddabdc8ba2413efe24fa04 fortran cicecore/cicedyn cicecore/shared
NOAA-EMC+WW3 f66b6d46ad8204a74ad4112ef39d5a230525f8c8 fortran model/src
FluidityProject+fluidity 50cc3882a117733b560dc049ee535f38ac55efb3 fortran femtools assemble
ESCOMP+CTSM 53f021b4d2a650759c1efc47c14f89f14a42aff0 fortran src/biogeophys src/biogeochem src/main
Goddard-Fortran-Ecosystem+pFUnit e3ccb4e4e8b9b870a8e3d758ac9fdd13a89d4d80 fortran src/funit
NOAA-EMC+NCEPLIBS-bufr 2d9b1a6de9bbf9030bf213473fccd933082218d1 fortran src
cdslaborg+paramonte c376e3927443533599551bf5c5fd0683035c311e fortran src/fortran
jchristopherson+linalg 6749505774beb9d901fe9e744fb2be96e22054a3 fortran src
EvotecIT+PSWriteHTML ffd9a734544c9df507d999d517c966f5337bbd20 powershell Public Private
jdhitsolutions+PSScriptTools f56b1ac5ecd79733c09c6d96e5be1e49cb952ccc powershell functions
RamblingCookieMonster+PSDepend f55c17c4ac60e68034123a2cc4838f34b309bb88 powershell PSDepend
proxb+PoshRSJob 83ce4ae11c171442f5d141bae1fc413757b15ef0 powershell PoshRSJob
gaelcolas+Sampler 9296b682a3a891403af1f8beb898aa5d1d7b28e2 powershell Sampler
lazywinadmin+PowerShell a54cf0ecae25d5591ea62e4431a1cf924eed209e powershell .
RamblingCookieMonster+PowerShell cdf6cb570503210b3b9f0e39860b0c2e9970d540 powershell .
dsccommunity+xPSDesiredStateConfiguration 08e898e60b0bdc56a4ce0899aa2ccfb0ee385b24 powershell source
dsccommunity+NetworkingDsc eaed17c393226962013aeec525db7fe0e68b1778 powershell source
microsoft+Microsoft365DSC eb886cac9249683c17cf06c36a03ccab7d72bb0d powershell Modules/Microsoft365DSC
microsoft+PowerStig efa8aec879259ade7db396715850c58df9f44e81 powershell source
microsoft+AL-Go 992ee305e2c6d86d85d53e18c4fc88a5171a8cd4 powershell Actions
PowerShell+PowerShell 929903692e550140efb5042ed05d65bfd21ccb5f powershell tools
mattifestation+PowerShellArsenal 9149c29e829455c763e211a2f9501ae6395360da powershell ."
# Perl: Debian bookworm's packages at these versions, each one's module tree (the pure-Perl
# /usr/share/perl5 and, for an architecture-dependent package, its perl5/5.36 tree).
DEBS="libmojolicious-perl=9.31+dfsg-1 libtemplate-perl=2.27-1+b5 libio-async-perl=0.802-1
 libexcel-writer-xlsx-perl=1.10-1 libpdf-api2-perl=2.044-1 libgraph-perl=1:0.9726-1
 libwww-perl=6.68-1 librose-db-object-perl=1:0.820-2 libmail-box-perl=3.009-1
 libtype-tiny-perl=2.002001-1"
perl_tree() {
    local P=$1 dl=$W/perl-dl x=$W/perl-x; rm -rf "$dl" "$x"; mkdir -p "$dl" "$x"
    # shellcheck disable=SC2086
    (cd "$dl" && apt-get download $DEBS)
    for spec in $DEBS; do
        p=${spec%%=*}; mkdir -p "$x/$p" "$P/$p"; dpkg-deb -x "$dl/${p}"_*.deb "$x/$p"
        for d in usr/share/perl5 usr/lib/x86_64-linux-gnu/perl5/5.36; do
            if [ -d "$x/$p/$d" ]; then cp -r "$x/$p/$d/." "$P/$p/"; fi
        done
    done
}
mkdir -p "$OUT"
for lang in $LANGS; do
    L=${W:?}/$lang; rm -rf "$L"; mkdir -p "$L"
    copy_trees "$TREES" "$lang" "$GH" "$L"
    if [ "$lang" = perl ]; then perl_tree "$L"; fi
    # The Perl rule of session 6's sets: a question comes from the sub's POD (its `=head2`/`=item`
    # entry, or a heading-less POD block above it), never from a `#` above it.
    $PY "$B/lang_sets.py" --lang "$lang" --src "$L" --out "$OUT" --n 60 --perl-doc pod
done
