#!/usr/bin/env bash
# Builds Tests/Fixtures/PluginConsumer, a package that uses Sesame's two SwiftPM plugins
# (docs/plugins.md), and fails when either does not work:
#   1. SesameBuildPlugin: `swift build` generates BuildPluginSDK from its Schema/ at build time;
#      build-plugin-check uses a generated model and operation, then runs.
#   2. SesameCommandPlugin: `generate-sdk --check` fails while CommandPluginSDK/Generated/ is
#      missing (and the target does not build), `generate-sdk` writes it, `--check` then passes,
#      and command-plugin-check builds and runs.
# The consumer builds in its own scratch folder (git-ignored), never in the root's .build.
#
#   scripts/check-plugins.sh                 SWIFT=... and PLUGIN_SCRATCH=... override the defaults
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
consumer="$root/Tests/Fixtures/PluginConsumer"
scratch="${PLUGIN_SCRATCH:-$consumer/.build-plugins}"
swift="${SWIFT:-swift}"
generated="$consumer/Sources/CommandPluginSDK/Generated"
started=$(date +%s)

step() { printf '\n== check-plugins: %s (%ss)\n' "$*" "$(( $(date +%s) - started ))" >&2; }
fail() { printf 'check-plugins: FAILED: %s\n' "$*" >&2; exit 1; }

cd "$consumer"
build() { "$swift" build --scratch-path "$scratch" "$@"; }
generate_sdk() { "$swift" package --scratch-path "$scratch" --allow-writing-to-package-directory generate-sdk "$@"; }

step "build plugin: swift build --product build-plugin-check"
build --product build-plugin-check || fail "the target using SesameBuildPlugin does not build"
bin="$(build --show-bin-path)"
"$bin/build-plugin-check" || fail "build-plugin-check did not run"
# The SDK went to the plugin's work folder, not into the package.
find "$scratch" -path '*SesameBuildPlugin*' -name 'BuildPluginSDK+Sesame.swift' | grep -q . \
    || fail "no BuildPluginSDK+Sesame.swift in the plugin work folder"
[ ! -e "$consumer/Sources/BuildPluginSDK/Generated" ] || fail "the build plugin wrote into the package"

step "command plugin: with no Generated/, --check fails and the target does not build"
rm -rf "$generated"
if generate_sdk --target CommandPluginSDK --check; then fail "generate-sdk --check passed with nothing generated"; fi
if build --product command-plugin-check >/dev/null 2>&1; then fail "command-plugin-check built without generated code"; fi

step "command plugin: generate-sdk --target CommandPluginSDK, then --check"
generate_sdk --target CommandPluginSDK || fail "generate-sdk failed"
grep -q "public struct User" "$generated/Models/Models.swift" || fail "generate-sdk wrote no User into Models/Models.swift"
generate_sdk --target CommandPluginSDK --check || fail "generate-sdk --check fails right after generate-sdk"

step "command plugin: swift build --product command-plugin-check"
build --product command-plugin-check || fail "the target written by generate-sdk does not build"
"$bin/command-plugin-check" || fail "command-plugin-check did not run"

step "OK"
echo "check-plugins: both plugins work ($(( $(date +%s) - started ))s)"
