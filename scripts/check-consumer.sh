#!/usr/bin/env bash
# What an app resolves when it depends on Sesame (docs/packages.md): a throw-away package that
# depends on the runtime, the stores, the Combine wrapper and the build plugin, as an app
# would, is resolved, and this fails when
#   - it resolves more than MAX_PACKAGES packages (the budget: 12, with OpenID Connect's
#     jwt-kit, docs/packages.md), or
#   - it resolves any package of the workshop: swift-nio, Hummingbird, async-http-client,
#     NIO-SSL, NIO-HTTP2 (they belong in Reference/, which apps never resolve).
# It prints the packages and the size of their checkouts. Resolving only: nothing is built
# (scripts/check-plugins.sh builds a consumer of the plugins).
#
#   scripts/check-consumer.sh            SWIFT=... and MAX_PACKAGES=... override the defaults
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
swift="${SWIFT:-swift}"
max="${MAX_PACKAGES:-12}"
forbidden=(swift-nio hummingbird async-http-client swift-nio-ssl swift-nio-http2)

app="$(mktemp -d)"
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App"
cat >"$app/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "App",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(name: "Sesame", path: "$root")],
    targets: [
        .target(
            name: "App",
            dependencies: [
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),
                .product(name: "SesameCombine", package: "Sesame"),
            ],
            plugins: [.plugin(name: "SesameBuildPlugin", package: "Sesame")]
        )
    ]
)
SWIFT
echo 'import Sesame' >"$app/Sources/App/App.swift"

if ! "$swift" package --package-path "$app" resolve >"$app/resolve.log" 2>&1; then
    cat "$app/resolve.log" >&2
    echo "check-consumer: FAILED: a package depending on Sesame does not resolve" >&2
    exit 1
fi
packages=$(ls "$app/.build/checkouts")
count=$(printf '%s\n' "$packages" | grep -c .)
size=$(du -sm "$app/.build/checkouts" | cut -f1)
echo "check-consumer: an app depending on Sesame, SesameStore, SesameCombine and SesameBuildPlugin resolves $count packages (${size} MB of checkouts):"
printf '  %s\n' $packages

status=0
for name in "${forbidden[@]}"; do
    if printf '%s\n' "$packages" | grep -qx "$name"; then
        echo "check-consumer: FAILED: an app resolves $name, which belongs in Reference/ (docs/packages.md)" >&2
        status=1
    fi
done
if [ "$count" -gt "$max" ]; then
    echo "check-consumer: FAILED: $count packages, more than the budget of $max (docs/packages.md)" >&2
    status=1
fi
exit $status
