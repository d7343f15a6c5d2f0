#!/bin/bash
# Session 4's third Go set: ten Debian bookworm `golang-*-dev` projects no earlier Go set used
# (earlier: go-playground/locales, golang.org/x/*, protobuf, yaml.v3, blackfriday, and the
# fresh_sets_a.sh seven), of different styles: CLI (cobra), logging (logrus), reflection (go-cmp),
# web routers (gin, chi), an expression VM (expr), a messaging client (nats.go), a TOML codec
# (go-toml v2), a B+tree store (bbolt), HCL's writer/JSON/decoder packages.
#   bash benchmarks/fresh_sets_go.sh WORKDIR OUTDIR
# Trees are cut by whole folders (hcl: four of its packages, not the generated scanner), never by a score.
set -euo pipefail
W=$1; OUT=$2; B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
mkdir -p $W/dl $W/x $OUT
(cd $W/dl && apt-get download golang-github-spf13-cobra-dev=1.6.1-1 golang-github-sirupsen-logrus-dev=1.9.0-1 golang-github-google-go-cmp-dev=0.5.9-1 golang-github-gin-gonic-gin-dev=1.8.1-1 golang-github-hashicorp-hcl-v2-dev=2.14.1-2 golang-github-antonmedv-expr-dev=1.8.9-2 golang-github-coreos-bbolt-dev=1.3.6-2 golang-github-go-chi-chi-dev=5.0.7-1 golang-github-nats-io-go-nats-dev=1.22.1-1 golang-github-pelletier-go-toml.v2-dev=2.0.6-1)
for f in $W/dl/*.deb; do dpkg-deb -x $f $W/x; done
# Real folders only: the packages' compatibility symlinks (Sirupsen/logrus, coreos/bbolt) would repeat files.
S=$W/x/usr/share/gocode/src; G=$W/go
mkdir -p $G/github.com/{spf13,sirupsen,google,gin-gonic,antonmedv,go-chi,nats-io,pelletier,hashicorp/hcl} $G/go.etcd.io
cp -r $S/github.com/spf13/cobra $G/github.com/spf13/; cp -r $S/github.com/sirupsen/logrus $G/github.com/sirupsen/
cp -r $S/github.com/google/go-cmp $G/github.com/google/; cp -r $S/github.com/gin-gonic/gin $G/github.com/gin-gonic/
cp -r $S/github.com/antonmedv/expr $G/github.com/antonmedv/; cp -r $S/github.com/go-chi/chi $G/github.com/go-chi/
cp -r $S/github.com/nats-io/nats.go $G/github.com/nats-io/; cp -r $S/github.com/pelletier/go-toml $G/github.com/pelletier/
cp -r $S/go.etcd.io/bbolt $G/go.etcd.io/; cp -r $S/github.com/hashicorp/hcl/v2/{hclwrite,json,gohcl,hcldec} $G/github.com/hashicorp/hcl/
$PY $B/lang_sets.py --lang go --src $G --out $OUT --n 60
