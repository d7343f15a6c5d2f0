#!/bin/bash
# Session 4's fresh code sets, part A (python js ts go rust c, and rg output): downloads, trims and builds.
#   bash benchmarks/fresh_sets_a.sh WORKDIR OUTDIR
# Needs pip, npm, apt-get (Debian bookworm) and, for C, GitHub snapshots brought by the search tool's
# `fetch` (redis/redis, libuv/libuv, jqlang/jq, curl/curl, madler/zlib) under /work/.mirror.
# Trees are cut by whole folders (a project may not fill a split), never by a score.
set -euo pipefail
W=$1; OUT=$2; B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
mkdir -p $W/dl/{py,npm,npmts,deb} $OUT
# ---- python
(cd $W/dl/py && pip download --no-deps --only-binary :all: jinja2==3.1.6 werkzeug==3.1.9 networkx==3.6.1 flask==3.1.3 marshmallow==4.4.0 tornado==6.6.1 boltons==26.2.0)
mkdir -p $W/py $W/nx-full; for w in $W/dl/py/*.whl; do python3 -m zipfile -e $w $W/py/; done
rm -rf $W/py/*.dist-info; find $W/py -name '*.so' -delete
mv $W/py/networkx/* $W/nx-full/ && rm -rf $W/py/networkx && mkdir -p $W/py/networkx/algorithms
cp -r $W/nx-full/{classes,readwrite} $W/py/networkx/; cp -r $W/nx-full/algorithms/{shortest_paths,flow} $W/py/networkx/algorithms/
$PY $B/lang_sets.py --lang python --src $W/py --out $OUT --n 60
# ---- js
(cd $W/dl/npm && npm pack mongoose@9.12.1 sequelize@6.37.8 bluebird@3.7.2 knex@3.3.0 yargs@18.2.0 handlebars@4.7.10 luxon@3.7.2 eslint@10.15.0 mocha@12.0.3 terser@5.51.2 socket.io@4.8.4 webpack@5.112.2)
for t in $W/dl/npm/*.tgz; do n=$(basename ${t%-[0-9]*}); mkdir -p $W/js/$n; tar -xzf $t -C $W/js/$n --strip-components=1; done
rm -rf $W/js/{handlebars/dist,handlebars/types,luxon/build,yargs,bluebird,sequelize,eslint/lib/rules}
mkdir -p $W/wp && mv $W/js/webpack $W/wp/ && mkdir -p $W/js/webpack/lib && cp -r $W/wp/webpack/lib/{optimize,javascript} $W/js/webpack/lib/ && cp $W/wp/webpack/package.json $W/js/webpack/
$PY $B/lang_sets.py --lang js --src $W/js --out $OUT --n 60
# ---- ts
(cd $W/dl/npmts && npm pack @anthropic-ai/sdk@1.12.0 immer@11.2.10 mobx@7.1.3 @tanstack/query-core@5.108.0 @tanstack/router-core@1.171.39 @reduxjs/toolkit@2.14.0 @trpc/server@11.25.2 @sinclair/typebox@0.34.52 @tanstack/form-core@4.0.2 typeorm@1.1.1)
for t in $W/dl/npmts/*.tgz; do n=$(basename ${t%-[0-9]*}); mkdir -p $W/ts/$n; tar -xzf $t -C $W/ts/$n --strip-components=1; done
rm -rf $W/ts/anthropic-ai-sdk/src/resources/{beta,organization}
$PY $B/lang_sets.py --lang ts --src $W/ts --out $OUT --n 60
# ---- go, rust (Debian bookworm)
(cd $W/dl/deb && apt-get download golang-github-miekg-dns-dev=1.1.50-2 golang-github-prometheus-client-golang-dev=1.14.0-3 golang-github-klauspost-compress-dev=1.15.12+ds1-3 golang-github-gorilla-websocket-dev=1.5.0-2 golang-github-hashicorp-raft-dev=1.1.2-1 golang-github-dgraph-io-badger-dev=2.2007.2-3 golang-github-minio-minio-go-v7-dev=7.0.46-1 librust-nom-dev=7.1.1-1 librust-rustls-dev=0.20.8-4 librust-nix-dev=0.26.1-3 librust-bstr-dev=0.2.17-1+b1 librust-globset-dev=0.4.9-1 librust-ignore-dev=0.4.18-2+b1 librust-csv-dev=1.1.6-1 librust-num-bigint-dev=0.4.3-2 librust-encoding-rs-dev=0.8.31-2 librust-clap-dev=4.0.32-1)
mkdir -p $W/x; for f in $W/dl/deb/*.deb; do dpkg-deb -x $f $W/x; done
mkdir -p $W/go $W/rust; cp -r $W/x/usr/share/gocode/src/* $W/go/; cp -r $W/x/usr/share/cargo/registry/* $W/rust/
$PY $B/lang_sets.py --lang go --src $W/go --out $OUT --n 60
$PY $B/lang_sets.py --lang rust --src $W/rust --out $OUT --n 60
# ---- c (GitHub snapshots via `fetch`; commits: redis 4f8cdc2a1ea5, libuv 6179e7af8741, jq 579e6f76cffd, curl 5c61e168698a, zlib d201f04c72b0)
for r in redis+redis libuv+libuv jqlang+jq curl+curl madler+zlib; do mkdir -p $W/gh/${r#*+}; git --git-dir=/work/.mirror/$r/repo archive HEAD | tar -x -C $W/gh/${r#*+}; done
mkdir -p $W/c/{redis/src,libuv,jq,curl/lib,zlib}
cp $W/gh/redis/src/[a-f]*.c $W/c/redis/src/; cp -r $W/gh/libuv/src $W/c/libuv/; cp -r $W/gh/jq/src $W/c/jq/; rm -rf $W/c/jq/src/decNumber
cp -r $W/gh/curl/lib/{vtls,vauth,vquic,vssh} $W/c/curl/lib/; cp $W/gh/zlib/*.c $W/c/zlib/
$PY $B/lang_sets.py --lang c --src $W/c --out $OUT --n 60
# ---- grep (rg on PATH)
G=$W/grep; mkdir -p $G
cp -r $W/nx-full $G/networkx; cp -r $W/py/tornado $G/; cp -r $W/py/werkzeug $G/
cp -r $W/wp/webpack/lib $G/webpack; mkdir -p $W/eslint-full && tar -xzf $W/dl/npm/eslint-*.tgz -C $W/eslint-full --strip-components=1 && cp -r $W/eslint-full/lib $G/eslint; cp -r $W/js/knex/lib $G/knex
cp -r $W/ts/anthropic-ai-sdk/src $G/anthropic-sdk; cp -r $W/ts/tanstack-query-core/src $G/query-core
cp -r $W/go/github.com/minio/minio-go $G/; cp -r $W/go/github.com/miekg/dns $G/; cp -r $W/go/github.com/klauspost/compress $G/
cp -r $W/rust/nix-0.26.1 $G/nix; cp -r $W/rust/rustls-0.20.8 $G/rustls; cp -r $W/rust/clap-4.0.32 $G/clap
cp -r $W/gh/redis/src $G/redis; cp -r $W/gh/curl/lib $G/curl; cp -r $W/gh/libuv/src $G/libuv
(cd $G && $PY $B/grep_sets.py --src anthropic-sdk clap compress curl dns eslint knex libuv minio-go networkx nix query-core redis rustls tornado webpack werkzeug --out $OUT)
