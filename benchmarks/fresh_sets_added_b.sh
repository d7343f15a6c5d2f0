#!/bin/bash
# Session 5's fresh code sets for six of the languages added in session 4: Lua, Haskell, OCaml,
# Perl, Elixir, Julia (dev + held-out, 60 tasks a split each). Their earlier halves had been looked
# at too often; these come from projects no earlier set used (earlier: Penlight, plenary.nvim,
# lazy.nvim; containers, bytestring, text; opam; Perl 5.36's library, Mojolicious, Path::Tiny,
# Try::Tiny, DateTime, HTTP::Message, LWP, Template Toolkit, DBI; elixir-lang/elixir; DataFrames.jl,
# Pkg.jl), of different authors and styles, and documented enough to give 60 tasks a split:
#   Lua: editor plugins (telescope.nvim, nvim-cmp), an API gateway (Kong), a package manager
#     (LuaRocks), an e-reader (KOReader), a window manager's widget library (awesome).
#   Haskell: a JSON library (aeson), Cabal's syntax library, lens, mtl, a shell linter (ShellCheck),
#     pandoc's readers, a REST server (PostgREST).
#   OCaml: a build system (dune: engine, rules, lang), Jane Street's Base, Lwt, Yojson, the OCaml
#     compiler's stdlib/ and typing/.
#   Perl (Debian bookworm packages): Moose, Plack, Dancer2, DBIx::Class, Log::Log4perl, Net::DNS,
#     IO::Socket::SSL, Text::CSV, Date::Manip, Net::Server, SpamAssassin, Mail::IMAPClient, lintian,
#     Debian::Debhelper, MIME-tools, perl-ldap, Automake's modules, ExifTool's two top modules.
#   Elixir: Phoenix, Phoenix LiveView, Ecto, Plug, Oban, Absinthe, Credo.
#   Julia: HTTP.jl, Distributions.jl, Plots.jl's PlotsBase/RecipesPipeline/StatsPlots, Flux.jl, JuMP.jl.
#       bash benchmarks/fresh_sets_added_b.sh GHDIR WORKDIR OUTDIR
# GitHub trees are not fetched here: bring each snapshot with the search tool's `fetch`
# (github:OWNER/NAME) and export the folders listed below at the commit listed into
# GHDIR/OWNER+NAME (`git --git-dir=… archive <sha> <folders> | tar -x -C GHDIR/OWNER+NAME`).
# Trees are cut by whole folders, never by a score: tests and generated code out (Date::Manip's
# Offset/ and TZ/ tables, ExifTool's per-format tag tables), pandoc's readers only and ExifTool's
# two top modules only so that no one project is most of a split.
set -euo pipefail
GH=$1; W=$2; OUT=$3; B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
# OWNER+NAME  commit (snapshot's date)  language  folders kept
TREES="nvim-telescope+telescope.nvim 7d324792b7943e4aa16ad007212e6acc6f9fe335 lua lua
hrsh7th+nvim-cmp a1d504892f2bc56c2e79b65c6faded2fd21f3eca lua lua
Kong+kong 22246ef28c16842098369b494eef879222e30c7b lua kong
luarocks+luarocks 2d2cc8eff2f03c23d142f8059146fb241dcf56b5 lua src/luarocks
koreader+koreader fc88887662c27fbef956a46d7772f2dde1658384 lua frontend
awesomeWM+awesome c104846a2cc954ce97077146e5964667c81c2165 lua lib
haskell+aeson 40b03e5334b0571b986528b635fb874a86b31725 haskell src
haskell+cabal f5319cdb191236b3bc93e79c0b14e2c637300c5a haskell Cabal-syntax/src
ekmett+lens 0b6b3d8a603ece77d4feaf9ac80d01d155b35843 haskell src
haskell+mtl f69c6d314b010e54529d6fe56fb5874b9a46ec5f haskell Control
koalaman+shellcheck 764802b7c023e9fdc191c12f57c418f186ad76ae haskell src
jgm+pandoc 0a9a2f261510322ee5a33a2a7facce54b8a718ec haskell src/Text/Pandoc/Readers
PostgREST+postgrest 4834678902681402a56c490f29947826e7ed5308 haskell src
ocaml+dune 8deee3bb92dcf42a861aaf3ac35182ca10511210 ocaml src/dune_engine src/dune_rules src/dune_lang
janestreet+base 14b656e5a4501f8ce08e6559511ee110f6283f81 ocaml src
ocsigen+lwt a735b669c717d5f63a99ec105c1c7f500109acdd ocaml src
ocaml-community+yojson 772d66b70c0ce1319f9ed9fe9087b4187f43ceb5 ocaml lib
ocaml+ocaml fd41e1ab55fa11cbb98df2dab96e43b5540db31c ocaml stdlib typing
phoenixframework+phoenix 167c46950cf53aef363d672687cc653267c20aa6 elixir lib
phoenixframework+phoenix_live_view d7f327cda0a1c2eb979357889fa612ceada70258 elixir lib
elixir-ecto+ecto c624abf4297b27589a5a7351b55feb2316f61e1c elixir lib
elixir-plug+plug a898c454a04ca5ffad306bd751a15c7ac9ff6927 elixir lib
sorentwo+oban 412b56a0c2ba4399ec39f1305b63eb285673b226 elixir lib
absinthe-graphql+absinthe d4c66faa9e642e4ad2b9b32ff12c0ef9b2a504ff elixir lib
rrrene+credo 6d07d005f4b6d635aff9dcc6f8fdbf0680beb89f elixir lib
JuliaWeb+HTTP.jl 444b92b5df2d3d38793fccc50a67e3b5a498d3ec julia src
JuliaStats+Distributions.jl 2697768b3324f3d0a6817cb21e50f7ed2408c19f julia src
JuliaPlots+Plots.jl f1734b439eb0808e6c586d9aec300eda100662e2 julia PlotsBase/src RecipesPipeline/src StatsPlots/src
FluxML+Flux.jl 3f2f828b523d7ea202cc9295ab4f174f2f45e3f2 julia src
jump-dev+JuMP.jl 21c52ac3f74a89ac2cc10cc45ead0d2f2d04c8e8 julia src"
L=${W:?}/lang; rm -rf "$L"; mkdir -p $L/{lua,haskell,ocaml,perl,elixir,julia} $W/dl $W/x $OUT
while read -r proj _sha lang folders; do
    for f in $folders; do mkdir -p $L/$lang/$proj/$(dirname $f); cp -r $GH/$proj/$f $L/$lang/$proj/$f; done
done <<< "$TREES"
DEBS="libmoose-perl=2.2203-1 libplack-perl=1.0050-1 libdancer2-perl=0.400001+dfsg-1
 libdbix-class-perl=0.082843-1 liblog-log4perl-perl=1.57-1 libnet-dns-perl=1.36-1+deb12u1
 libio-socket-ssl-perl=2.081-2 libtext-csv-perl=2.02-2 libdate-manip-perl=6.91-1
 libimage-exiftool-perl=12.57+dfsg-1 libnet-server-perl=2.013-2 spamassassin=4.0.1-1~deb12u1
 libmail-imapclient-perl=3.43-1 lintian=2.116.3+deb12u1 libdebhelper-perl=13.11.4
 libmime-tools-perl=5.510-1 libnet-ldap-perl=1:0.6800+dfsg-1 automake=1:1.16.5-1.3"
(cd $W/dl && apt-get download $DEBS)
P=$L/perl
for spec in $DEBS; do
    p=${spec%%=*}; mkdir -p $W/x/$p $P/$p; dpkg-deb -x $W/dl/${p}_*.deb $W/x/$p
    case $p in  # each package's module tree, whole
        libmoose-perl) cp -r $W/x/$p/usr/lib/x86_64-linux-gnu/perl5/5.36/. $P/$p/ ;;
        lintian) cp -r $W/x/$p/usr/share/lintian/lib/. $P/$p/ ;;
        automake) cp -r $W/x/$p/usr/share/automake-1.16/Automake $P/$p/ ;;
        *) cp -r $W/x/$p/usr/share/perl5/. $P/$p/ ;;
    esac
done
rm -rf $P/libdate-manip-perl/Date/Manip/{Offset,TZ} $P/libimage-exiftool-perl/Image/ExifTool
for lang in lua haskell ocaml perl elixir julia; do
    $PY $B/lang_sets.py --lang $lang --src $L/$lang --out $OUT --n 60
done
