#!/usr/bin/env bash
# Instructions per decode of `sesame-bench decode`'s `token` payload (issue 30), Sesame's side
# against the peer's (swift-openapi-generator's type), counted by callgrind.
#
# valgrind 3.19 crashes at the start of `sesame-bench` itself (any subcommand, even --help), so
# this builds a throw-away package of exactly what the two sides run: the generated
# `TokenResponse` (Benchmarks/Sources/DecodeModels) with `PropertyKey` (Sources/Sesame), the
# peer's `TokenResponse` (Benchmarks/Sources/PeerDecodeModels), each in a module of its own as
# in the benchmark, decoded from the benchmark's 178 bytes by a default `JSONDecoder`. Both are
# copied from the checkout at each run, not kept here. Each side runs 1,000 and then 3,000
# decodes in a process of its own; the difference of the totals over 2,000 is the figure (the
# start-up cancels out). SWIFT_DETERMINISTIC_HASHING=1 gives both sides the same dictionary
# probes. docs/performance.md ("decode and encode") has the figure.
#
#   scripts/token-profile.sh             SWIFT=... overrides the toolchain; KEEP=1 keeps the
#                                        package and the callgrind files (path printed)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
swift="${SWIFT:-swift}"
work="$(mktemp -d)"
if [[ -z "${KEEP:-}" ]]; then trap 'rm -rf "$work"' EXIT; fi

# The declaration that starts at the first line matching $2 in file $1, up to the line that
# closes it (the same indentation followed by `}`).
declaration() {
    awk -v start="$2" '
        !found && $0 ~ start { found = 1; match($0, /^ */); indent = substr($0, 1, RLENGTH) }
        found { print }
        found && $0 == indent "}" { exit }
    ' "$1"
}

mkdir -p "$work/Sources/Key" "$work/Sources/SesameSide" "$work/Sources/PeerSide" "$work/Sources/token-profile"
cat >"$work/Package.swift" <<'EOF'
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "token-profile",
    targets: [
        .target(name: "Key"),
        .target(name: "SesameSide", dependencies: ["Key"]),
        .target(name: "PeerSide"),
        .executableTarget(name: "token-profile", dependencies: ["SesameSide", "PeerSide"]),
    ],
    swiftLanguageModes: [.v6]
)
EOF
declaration "$root/Sources/Sesame/Models/ModelCoding.swift" 'public struct PropertyKey:' \
    | sed 's/^@_spi(Generated) //' >"$work/Sources/Key/PropertyKey.swift"
{
    echo "import Key"
    declaration "$root/Benchmarks/Sources/DecodeModels/Generated/Models/Models.swift" '^public struct TokenResponse:'
} >"$work/Sources/SesameSide/TokenResponse.swift"
{
    echo "public enum Components { public enum Schemas {"
    declaration "$root/Benchmarks/Sources/PeerDecodeModels/Generated/Types+Components+Schemas.swift" \
        'public struct TokenResponse:'
    echo "} }"
} >"$work/Sources/PeerSide/TokenResponse.swift"
cat >"$work/Sources/token-profile/main.swift" <<'EOF'
import Foundation
import PeerSide
import SesameSide

// `sesame-bench decode`'s token payload: CodingPayload.tokenValue, sorted keys, `scope` absent.
let data = Data(
    #"{"access_token":"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIiwiZXhwIjoxNzAwMDAzNjAwfQ.c2lnbmF0dXJl","expires_in":3600,"refresh_token":"def50200a1b2c3d4e5f6","token_type":"Bearer"}"#
        .utf8)
let decoder = JSONDecoder()
let count = Int(CommandLine.arguments[2])!
switch CommandLine.arguments[1] {
case "sesame": for _ in 0..<count { _ = try decoder.decode(SesameSide.TokenResponse.self, from: data) }
default: for _ in 0..<count { _ = try decoder.decode(Components.Schemas.TokenResponse.self, from: data) }
}
EOF

fail() {
    echo "token-profile: $*" >&2
    exit 1
}
command -v valgrind >/dev/null || fail "valgrind is not installed (apt-get install valgrind)"
(cd "$work" && "$swift" build -c release >/dev/null) || fail "building the throw-away package in $work failed (KEEP=1 keeps it)"
binary="$work/.build/release/token-profile"
[[ -x "$binary" ]] || fail "the build left no executable at $binary"
# The total callgrind prints ("Collected : N"), or an error that says what happened instead: a
# run that fails or crashes under valgrind, or ends without a total, gives no figure.
instructions() {
    local log="$work/valgrind.$1.$2.log" status=0 total
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.$1.$2" "$binary" "$1" "$2" \
        >"$log" 2>&1 || status=$?
    total="$(awk '/Collected/ { gsub(",", "", $4); print $4 }' "$log")"
    local why=""
    if [[ $status -ne 0 ]]; then
        why="valgrind exited with status $status${total:+ (the total it printed, $total, is not used)}"
    elif [[ ! $total =~ ^[0-9]+$ ]]; then
        why="valgrind printed no instruction total"
    fi
    if [[ -n $why ]]; then
        echo "token-profile: no count for '$1 $2': $why; the end of its output:" >&2
        tail -n 15 "$log" >&2
        return 1
    fi
    echo "$total"
}
declare -A perDecode
for side in sesame peer; do
    low="$(instructions "$side" 1000)" || exit 1
    high="$(instructions "$side" 3000)" || exit 1
    perDecode[$side]=$(((high - low) / 2000))
    echo "$side: ${perDecode[$side]} instructions per decode"
done
awk -v s="${perDecode[sesame]}" -v p="${perDecode[peer]}" 'BEGIN { printf "sesame / peer: %.3f\n", s / p }'
if [[ -n "${KEEP:-}" ]]; then echo "kept: $work (callgrind_annotate $work/callgrind.sesame.3000)"; fi
