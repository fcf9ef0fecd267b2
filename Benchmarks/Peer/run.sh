#!/usr/bin/env bash
# Sesame side by side with swift-openapi-generator 1.14.3 (docs/performance.md, "Against swift-openapi-generator").
#
# usage: Benchmarks/Peer/run.sh generate [--models 500,2000] [--runs 3]
#        Benchmarks/Peer/run.sh compile  [--models 500] [--runs 3] [--swiftc-flag FLAG]...
#        Benchmarks/Peer/run.sh write --models N --into DIR
#        Benchmarks/Peer/run.sh decode-types
#
# Builds, in release, the two CLIs (`sesame` from this checkout, the peer's from its 1.14.3
# tag) and the driver, then runs `peer-bench` with the arguments given. Scratch files go in
# Benchmarks/Peer/.work (ignored by git). This package is built by nothing else: not by
# `make test`, `make bench` or CI, so none of them pays for OpenAPIKit.
set -euo pipefail
cd "$(dirname "$0")"
# The peer's types for the schemas of `sesame-bench decode` and `encode` (issue 30), from
# Decode/openapi.yaml into Benchmarks/Sources/PeerDecodeModels/Generated, which is committed.
if [ "${1:-}" = decode-types ]; then
    swift build -c release --product swift-openapi-generator
    rm -f ../Sources/PeerDecodeModels/Generated/*.swift
    exec "$(swift build -c release --show-bin-path)/swift-openapi-generator" generate Decode/openapi.yaml \
        --config Decode/openapi-generator-config.yaml --output-directory ../Sources/PeerDecodeModels/Generated
fi
swift build -c release --product sesame
swift build -c release --product swift-openapi-generator
swift build -c release --product peer-bench
exec "$(swift build -c release --show-bin-path)/peer-bench" "$@"
