#!/bin/bash
# Session 5's fresh sets for six of the languages added in session 4 (kotlin swift scala dart objc
# zig): real projects no earlier set used (earlier: okio, kotlinx.coroutines; swift-collections,
# Alamofire, swift-argument-parser, swift-algorithms, vapor; cats; dart-lang/collection, async;
# zls, http.zig; AFNetworking, SDWebImage, ReactiveObjC, CocoaLumberjack, FormatterKit), several
# per language and of different styles and authors: libraries, frameworks, apps, standard-library
# code. The earlier halves had been looked at too often to stay held-out.
#   bash benchmarks/fresh_sets_added_a.sh SRCDIR WORKDIR OUTDIR [LANG...]
# SRCDIR holds each GitHub snapshot's tree as SRCDIR/OWNER+NAME (bring it with the search tool's
# `fetch` github:OWNER/NAME, then `git --git-dir=… archive HEAD | tar -x -C SRCDIR/OWNER+NAME`, or,
# where a snapshot lacks a large binary and `archive` stops at it (ghostty, Kingfisher, riverpod …),
# each source file by `git cat-file blob HEAD:PATH`); this script fetches nothing. The snapshots
# used are the commits below. Trees are cut by whole folders (the main sources: no tests, samples,
# build tooling or generated code), never by a score; the builder skips any path with "test",
# "spec" or "fuzz" besides.
set -euo pipefail
S=$1; W=$2; OUT=$3; shift 3; LANGS=${*:-kotlin swift scala dart objc zig}
B=$(cd "$(dirname "$0")" && pwd); PY=${PY:-$B/../.venv/bin/python}
# The snapshots (OWNER/NAME COMMIT):
#   square/moshi 889013ec2edb8d8034902662a1dc8c4f3b3f8111
#   square/wire e296edca5e82e3f7834517b26a30d00d8ff65aa3
#   JetBrains/Exposed 1be664715fc581cda0ec6141b2914908dabe184e
#   InsertKoinIO/koin fff5291f333c04fe5d6d9447f72740647d40d186
#   arrow-kt/arrow 0aa9227a8dcc51fc207b219f328c62cf85195a2e
#   Kotlin/kotlinx.serialization 370c4e3780066b82f746cf38e4733cbe62c94f74
#   apple/swift-nio 63018571c88ab6807d5d80ea0f1ef7d9197c0489
#   ReactiveX/RxSwift 5abdfe46cc21e4d536cdfc3dd09e130503f599fb
#   onevcat/Kingfisher 410984bf301f4fa224fe56277b3f8672cc465c79
#   pointfreeco/swift-composable-architecture d34c1dfe7a4b13ba96c37f8b78f7dc9432dd0471
#   apple/swift-log 7af2de138f5f0fddf0bd5c7e19face6944ed76af
#   SnapKit/SnapKit 2842e6e84e82eb9a8dac0100ca90d9444b0307f4
#   swiftlang/swift-markdown 2020df0a84f75ff054ad9ea7ce1f1025be6b9dbf
#   circe/circe 1da94272096eedd88a6ea04be127618ef8cf943a
#   apache/pekko 9d9771347e7f3f3900acc196c5cd9252384c2141
#   scala/scala 75a4352f73d5a22c61974a62055ce5909d6ef90c
#   com-lihaoyi/fastparse 385431ec271b411505a9458bf8f85d489a9b001b
#   com-lihaoyi/os-lib e237000cbd4d97a4c4463df43d64556130d2bc50
#   playframework/play-json a1159e5806377a6801e472a4acade3569be531b6
#   softwaremill/sttp cf4bdafbbc541393f8244aa22c979bb3553993e2
#   scopt/scopt 75cd14c9e1f517e9d1beb8de9e3427e40630f1cb
#   dart-lang/core 25926e846003a123e5249df42c5a1ce30c246e3a
#   dart-lang/http a0d49cb2f80eae038c835394014aadcae8a95c8b
#   dart-lang/tools 7dc3279da2d7b6bdd49164cada8531d6a2125c15
#   dart-lang/dart_style 39edc2d946a5d7bd1caf6f1695f366b00f7b873c
#   dart-lang/pub ec276d10a7fa0f6c6ec005340fb9ad29f3b012d0
#   cfug/dio 6ad2f90aa36e6348940f68bda12e6b42f1ec7c0c
#   flame-engine/flame 7fd33dee9b822bef7b3fbf0621d0f3ebdab39a5d
#   rrousselGit/riverpod b79c65cb40374808cb858e5f908623c2856200cf
#   ccgus/fmdb d3abf748a2788471535993286603322ccdd02c3d
#   Mantle/Mantle 2a8e2123a3931038179ee06105c9e6ec336b12ea
#   facebook/KVOController 1ee564830a466f96e86c403f55fbe125c04af5f4
#   SnapKit/Masonry 8bd77ea92bbe995e14c454f821200b222e5a8804
#   jdg/MBProgressHUD 4a7c5f3e53cdea77c5dcb8578c2ee5acacdf6781
#   openid/AppAuth-iOS a7caeda164dc5108bf4649472b28a5af65dc6f33
#   google/gtm-session-fetcher 02c68701d20bf5cd60276200b2df781b59c36843
#   google/google-toolbox-for-mac 89625861daea4b85f4a88301a22385100a139e49
#   FLEXTool/FLEX 63a6f588841e94e4c3adaa045ff16eb8163f0bb4
#   robbiehanson/XMPPFramework 7d4dd1f215f18e9db5bbf1739403583c78afb4e7
#   sparkle-project/Sparkle fa4eaa977cb1a390b237349be2f3d761175f345a
#   erikdoe/ocmock 7f6e9e9b6c9ffa19a9040860da9f7a1f202b9f4d
#   nicklockwood/iCarousel c9e043e1fa767f88d31de8dae95585345e8e7676
#   objective-see/LuLu 7d2669ed32e5b195d5863dc9695441d3301ba7b0
#   quicksilver/Quicksilver 56896299ebb2ab63db0f9b723a2f141c65a43fab
#   kstenerud/KSCrash 62039fc55f3f673fefb3644099f646ae3c30fc5e
#   TimOliver/TOCropViewController 9782ecf30b5d16dfc95c89c939180adf457a2e82
#   tigerbeetle/tigerbeetle 52ad553f96355e63516ecfc8db25540c17c1c0c7
#   ghostty-org/ghostty 3b9c4e0ddbe953540243af89cf11fad26f297088
#   Vexu/arocc b33420c983eea74f09cf68f120941be98a52dfe6
#   mitchellh/libxev a82a04eabb46b0611c72d6d0e32db2d9dcf2e745
#   rockorager/libvaxis cca454be4e002dbe1a386ff0fd3420ea21813fb5
#   zigimg/zigimg a7440df3fc41cde7df078b1c5829646c13056d49
#   Hejsil/zig-clap e91d66b1abba2024cd2e816426f14d233d3dad9a
# keep LANG OWNER+NAME FOLDER...: copy whole folders of a snapshot into WORKDIR/LANG/NAME.
keep() {
  local lang=$1 repo=$2; shift 2
  for f in "$@"; do mkdir -p "$W/$lang/${repo#*+}/$(dirname "$f")"; cp -r "$S/$repo/$f" "$W/$lang/${repo#*+}/$f"; done
}
# arrow: its core, fx, optics and resilience libraries (not arrow-core-high-arity, generated);
# wire: the schema, runtime, compiler and Kotlin generator (not the generated golden files).
kotlin() {
  keep kotlin square+moshi moshi/src/main moshi-adapters/src/main moshi-kotlin/src/main moshi-kotlin-codegen/src/main
  keep kotlin square+wire wire-schema/src wire-runtime/src wire-compiler/src/main wire-kotlin-generator/src/main
  keep kotlin JetBrains+Exposed exposed-core/src/main exposed-dao/src/main exposed-jdbc/src/main exposed-r2dbc/src/main
  keep kotlin InsertKoinIO+koin projects/core/koin-core/src projects/core/koin-core-coroutines/src
  keep kotlin arrow-kt+arrow arrow-libs/core/arrow-core/src arrow-libs/fx/arrow-fx-coroutines/src arrow-libs/fx/arrow-fx-stm/src arrow-libs/optics/arrow-optics/src arrow-libs/resilience/arrow-resilience/src
  keep kotlin Kotlin+kotlinx.serialization core/commonMain core/jvmMain formats/json/commonMain formats/cbor/commonMain formats/protobuf/commonMain
}
# swift-nio: its core, HTTP/1 and WebSocket modules, not the POSIX event loops and file system
# (they would be half of the set); RxSwift's platform symlinks are skipped by the builder.
swift() {
  keep swift apple+swift-nio Sources/NIOCore Sources/NIOHTTP1 Sources/NIOWebSocket Sources/NIOConcurrencyHelpers Sources/_NIODataStructures
  keep swift ReactiveX+RxSwift RxSwift RxCocoa RxRelay RxBlocking
  keep swift onevcat+Kingfisher Sources
  keep swift pointfreeco+swift-composable-architecture Sources/ComposableArchitecture
  keep swift apple+swift-log Sources/Logging
  keep swift SnapKit+SnapKit Sources
  keep swift swiftlang+swift-markdown Sources/Markdown
}
# scala/scala: the standard library's immutable collections, concurrency, math and util (not its
# generated Function/Tuple/Product files, nor the compiler); pekko: typed actors and the Scala
# stream DSL and stages (its whole actor and stream modules would be half of the set).
scala() {
  keep scala scala+scala src/library/scala/collection/immutable src/library/scala/concurrent src/library/scala/math src/library/scala/util src/library/scala/sys
  keep scala apache+pekko actor-typed/src/main/scala stream/src/main/scala/org/apache/pekko/stream/scaladsl stream/src/main/scala/org/apache/pekko/stream/stage
  keep scala circe+circe modules/core/shared/src/main modules/generic/shared/src/main modules/numbers/shared/src/main modules/pointer/src/main modules/parser modules/jawn
  keep scala playframework+play-json play-json/shared/src/main play-json/jvm/src/main
  keep scala softwaremill+sttp core/src/main
  keep scala com-lihaoyi+os-lib os/src os/src-jvm
  keep scala com-lihaoyi+fastparse fastparse/src fastparse/src-3
  keep scala scopt+scopt shared/src/main
}
# dart-lang/core: its packages but collection and async (earlier sets); dart-lang/tools: yaml,
# markdown (moved there) and yaml_edit; riverpod: its core, providers and common folders (not the
# generated builder.dart and framework.g.dart beside them).
dart() {
  keep dart dart-lang+core pkgs/args/lib pkgs/path/lib pkgs/fixnum/lib pkgs/convert/lib pkgs/logging/lib pkgs/crypto/lib pkgs/typed_data/lib
  keep dart dart-lang+http pkgs/http/lib pkgs/http2/lib pkgs/http_parser/lib
  keep dart dart-lang+tools pkgs/yaml/lib pkgs/markdown/lib pkgs/yaml_edit/lib
  keep dart dart-lang+dart_style lib
  keep dart dart-lang+pub lib
  keep dart cfug+dio dio/lib
  keep dart flame-engine+flame packages/flame/lib
  keep dart rrousselGit+riverpod packages/riverpod/lib/src/core packages/riverpod/lib/src/providers packages/riverpod/lib/src/common
}
# Objective-C documents mostly in its headers and the builder reads `.m` files, so this language
# takes more projects: libraries, a debugging tool (FLEX), an updater (Sparkle), an XMPP stack,
# a crash reporter (KSCrash), two apps (the LuLu firewall, the Quicksilver launcher: its own code,
# not Code-External's vendored libraries).
objc() {
  keep objc ccgus+fmdb src/fmdb
  keep objc Mantle+Mantle Mantle
  keep objc facebook+KVOController FBKVOController
  keep objc SnapKit+Masonry Masonry
  keep objc jdg+MBProgressHUD MBProgressHUD.m
  keep objc openid+AppAuth-iOS Sources
  keep objc google+gtm-session-fetcher Sources
  keep objc google+google-toolbox-for-mac Foundation AppKit Sources
  keep objc FLEXTool+FLEX Classes
  keep objc robbiehanson+XMPPFramework Core Extensions Utilities
  keep objc sparkle-project+Sparkle Sparkle
  keep objc erikdoe+ocmock Source/OCMock
  keep objc nicklockwood+iCarousel iCarousel
  keep objc objective-see+LuLu LuLu/App LuLu/Extension LuLu/Shared
  keep objc quicksilver+Quicksilver Quicksilver/Code-QuickStepCore Quicksilver/Code-App Quicksilver/Code-QuickStepFoundation Quicksilver/Code-QuickStepInterface
  keep objc kstenerud+KSCrash Sources
  keep objc TimOliver+TOCropViewController Objective-C/TOCropViewController
}
# ziglang/zig's snapshot is too large to bring here: tigerbeetle's stdx stands for std-library
# code, beside its storage (lsm) and consensus (vsr); ghostty: its terminal core and data
# structures (the app, fonts and renderers would be half of the set); a C compiler (arocc), an
# event loop (libxev), a TUI library (libvaxis), an image codec library (zigimg), a CLI parser.
zig() {
  keep zig tigerbeetle+tigerbeetle src/lsm src/vsr src/stdx
  keep zig ghostty-org+ghostty src/terminal src/datastruct
  keep zig Vexu+arocc src/aro src/backend
  keep zig mitchellh+libxev src
  keep zig rockorager+libvaxis src
  keep zig zigimg+zigimg src
  keep zig Hejsil+zig-clap clap clap.zig
}
for L in $LANGS; do
  rm -rf "${W:?}/$L"; mkdir -p "$W/$L" "$OUT"
  $L
  $PY "$B/lang_sets.py" --lang "$L" --src "$W/$L" --out "$OUT" --n 60
done
