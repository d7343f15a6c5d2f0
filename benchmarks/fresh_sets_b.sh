#!/bin/bash
# Session 4's fresh code sets, part B (java cpp csharp ruby php bash): downloads, assembles and builds.
#   ROOT=/tmp/fresh-b bash benchmarks/fresh_sets_b.sh OUTDIR
# GitHub repositories: bring each with the search tool's `fetch` (github:OWNER/NAME) first; they are
# archived at the commits below. Seeds: per language, among 14-25, the one whose larger split has the
# smallest single-project share (chosen from the files' paths, never from a score).
set -euo pipefail
R=${ROOT:-/tmp/jp-setsB}; D=$R-debs X=$R-x G=$R-git S=$R-src
mkdir -p $D $X $G && cd $D
DEBS="libcli11-dev rapidjson-dev libcereal-dev libpugixml-dev
 ruby-sequel yard puma ruby-net-ssh ruby-nokogiri ruby-mail ruby-tzinfo ruby-httpclient ruby-gettext ruby-net-ldap
 ruby-git ruby-zip ruby-grape ruby-haml ruby-mime-types ruby-liquid ruby-hashie ruby-excon ruby-rest-client
 php-doctrine-orm php-illuminate-database php-illuminate-support php-illuminate-collections php-sabre-dav
 php-sabre-vobject php-league-flysystem php-ramsey-uuid php-symfony-routing php-symfony-validator php-parser
 byobu fai-client fai-server pbuilder quilt devscripts gettext ucf mariadb-server openssh-client dpkg apt live-boot
 chkrootkit texinfo open-vm-tools netscript-2.4 grml-debootstrap xen-utils-common"
for p in $DEBS; do apt-get download $p; mkdir -p $X/$p; dpkg-deb -x ${p}_*.deb $X/$p; done
COMMITS="google+gson 9835b6f90192f79cdf5300c528fc6212455fb6c1 2026-08-08
FasterXML+jackson-core b367da1c30a25e99fbf2c30876e948b578c86846 2025-06-16
google+guice 621416a2408952eec8007e06e81f4dc21baa8ab0 2026-08-03
junit-team+junit4 71c33ce555230d9dfb6cab5e133e22a4cc95cdff 2025-11-26
google+re2 972a15cedd008d846f1a39b2e88ce48d7f166cbd 2026-01-22
google+leveldb 78a352f47ed6c1e9d750545e9b242289185b87e1 2026-03-06
jbeder+yaml-cpp c3f81127320662deb3e28f4da0a511f1faecd860 2026-08-14
NLog+NLog 01a20bc9b61c0d6296e5b6e62a0518a443b944b5 2026-04-23
StackExchange+StackExchange.Redis 90bbf1fcba1c9cc464c94b96d16c2706f590383f 2026-08-20
App-vNext+Polly 173d6d1d2e28a4697f1ac1d22da68f77ff19a0c9 2026-08-21
Humanizr+Humanizer ffc2b77c0f30d2fb176875841424379319d0ae9b 2026-08-05
JoshClose+CsvHelper 33970e5183383bdac1fbce3b3fbcdf46b318ca52 2025-06-03
FluentValidation+FluentValidation ea299fe59719950018fa240dab86da414190d7f4 2026-08-02
restsharp+RestSharp 9b2fe0a054eb732d4246ae5e117ffa02c703abd2 2026-03-05
jbogard+MediatR 8a64581e2570e7410c5f44835d9ea112beccbe6b 2025-03-24
AutoMapper+AutoMapper 4b9633f60ee386cf0efc69b967e04fa28405cf3e 2025-02-24
ohmybash+oh-my-bash ae44713948daaf99b2e2c6fe7e436f6a83bf07da 2026-05-04
rvm+rvm 587412d59a6f0e1f70f200faef5daf535be69717 2026-06-09
pyenv+pyenv bec9a562a59e48a730fe3320fe90c6999c82886c 2026-07-18
pi-hole+pi-hole 1837b754b945eeab6ad5976443b38b983eb96e6e 2025-10-28
Bash-it+bash-it 0f04edce0ca93fbe66f1fe23c8d9b7a01e53f94c 2025-10-16
archlinux+mkinitcpio fc8137c5d7b2addbf30a6b7cc776b9db857b368f 2026-04-29
git-ftp+git-ftp 7349a0f88150f47e1c3e1418493a28a54563c4f4 2026-01-06
Homebrew+install ca0130bd52235f2fcb2bf23cfdda004bc5d250c1 2026-07-24
docker-mailserver+docker-mailserver c9b015ddc869b277c16dd20ef4a70e595c72d022 2026-08-19
GameServerManagers+LinuxGSM 80350f308adcd3e658ef38efa5d2fd33f0a35027 2025-11-08
dylanaraps+pfetch a906ff89680c78cec9785f3ff49ca8b272a0f96b 2021-12-10"
arc() { local c; c=$(echo "$COMMITS" | awk -v r=$1 '$1==r {print $2}'); mkdir -p $G/$1
  git --git-dir=/work/.mirror/$1/repo archive $c ${2:-} | tar -x -C $G/$1; }
for r in google+gson FasterXML+jackson-core google+guice junit-team+junit4 google+re2 google+leveldb jbeder+yaml-cpp \
  NLog+NLog App-vNext+Polly Humanizr+Humanizer JoshClose+CsvHelper FluentValidation+FluentValidation restsharp+RestSharp \
  jbogard+MediatR ohmybash+oh-my-bash rvm+rvm pyenv+pyenv pi-hole+pi-hole Bash-it+bash-it archlinux+mkinitcpio \
  git-ftp+git-ftp Homebrew+install docker-mailserver+docker-mailserver GameServerManagers+LinuxGSM dylanaraps+pfetch; do arc $r; done
arc AutoMapper+AutoMapper src; arc StackExchange+StackExchange.Redis src   # whole-tree archive trips on absent LFS blobs
mkdir -p $S/{java,cpp,csharp,ruby,php,bash}
cp -r $G/google+gson $S/java/gson; cp -r $G/FasterXML+jackson-core $S/java/jackson-core
cp -r $G/google+guice $S/java/guice; cp -r $G/junit-team+junit4 $S/java/junit4
cp -r $G/google+re2 $S/cpp/re2; cp -r $G/google+leveldb $S/cpp/leveldb; cp -r $G/jbeder+yaml-cpp $S/cpp/yaml-cpp
for d in libcli11-dev rapidjson-dev libcereal-dev libpugixml-dev; do cp -r $X/$d $S/cpp/$d; done
cp -r $G/NLog+NLog $S/csharp/NLog; cp -r $G/StackExchange+StackExchange.Redis $S/csharp/StackExchange.Redis
cp -r $G/App-vNext+Polly $S/csharp/Polly; cp -r $G/Humanizr+Humanizer $S/csharp/Humanizer
rm -rf $S/csharp/Humanizer/src/Humanizer/Localisation   # per-locale near-duplicate converters
cp -r $G/JoshClose+CsvHelper $S/csharp/CsvHelper; cp -r $G/FluentValidation+FluentValidation $S/csharp/FluentValidation
cp -r $G/restsharp+RestSharp $S/csharp/RestSharp; cp -r $G/jbogard+MediatR $S/csharp/MediatR; cp -r $G/AutoMapper+AutoMapper $S/csharp/AutoMapper
for d in $X/ruby-* $X/yard $X/puma; do cp -r $d $S/ruby/; done
for d in $X/php-*; do cp -r $d $S/php/; done
for d in byobu fai-client fai-server pbuilder quilt devscripts gettext ucf mariadb-server openssh-client dpkg apt live-boot \
  chkrootkit texinfo open-vm-tools netscript-2.4 grml-debootstrap xen-utils-common; do cp -r $X/$d $S/bash/$d; done
cp -r $G/ohmybash+oh-my-bash $S/bash/oh-my-bash   # minus vendored copies (git's completion/prompt, hub/gh/svn/compose)
rm -rf $S/bash/oh-my-bash/completions $S/bash/oh-my-bash/tools/git-completion.bash $S/bash/oh-my-bash/tools/git-prompt.sh
cp -r $G/Bash-it+bash-it $S/bash/bash-it   # minus files duplicated in oh-my-bash or in itself
rm -f $S/bash/bash-it/completion/available/{docker-compose,hub}.completion.bash
rm -rf $S/bash/bash-it/themes/agnoster $S/bash/bash-it/themes/gitline
cp -r $G/rvm+rvm $S/bash/rvm; cp -r $G/pyenv+pyenv $S/bash/pyenv; cp -r $G/pi-hole+pi-hole $S/bash/pi-hole
cp -r $G/archlinux+mkinitcpio $S/bash/mkinitcpio; cp -r $G/git-ftp+git-ftp $S/bash/git-ftp
cp -r $G/Homebrew+install $S/bash/homebrew-install; cp -r $G/docker-mailserver+docker-mailserver $S/bash/docker-mailserver
cp -r $G/GameServerManagers+LinuxGSM $S/bash/LinuxGSM; cp -r $G/dylanaraps+pfetch $S/bash/pfetch
B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}; OUT=$1
for ls in java:18 cpp:22 csharp:24 ruby:17 php:14 bash:20; do L=${ls%:*}
  $PY $B/lang_sets.py --lang $L --src $S/$L --out $OUT --n 60 --seed ${ls#*:}; done
