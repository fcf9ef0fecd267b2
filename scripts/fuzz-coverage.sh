#!/usr/bin/env bash
# Source coverage of the fuzzing corpus (docs/fuzzing.md, "Figures"): which lines of the
# generator the inputs in Fuzz/work/corpus and Fuzz/work/seeds reach.
#
#   scripts/fuzz-coverage.sh            # after `make fuzz`: report per file and in all
#   make fuzz-coverage
#
# Builds the fuzz target again with clang's source-based coverage (`-profile-generate
# -profile-coverage-mapping`, in its own scratch path .build-fuzz-cov), runs every corpus
# input once (libFuzzer's `-runs=0` executes the corpus and stops), merges the profiles with
# llvm-profdata, and prints llvm-cov's report for Generator/SesameGenerator. The report is
# also written to Fuzz/work/coverage.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
WORK=Fuzz/work
BIN_DIR=$(dirname "$(command -v "$SWIFT")")
LLVM_PROFDATA=${LLVM_PROFDATA:-$BIN_DIR/llvm-profdata}
LLVM_COV=${LLVM_COV:-$BIN_DIR/llvm-cov}
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

if [ ! -d "$WORK/corpus" ] || [ -z "$(ls -A "$WORK/corpus")" ]; then
    echo "no corpus in $WORK/corpus: run \`make fuzz\` first" >&2
    exit 2
fi

FLAGS=(-c release --package-path Fuzz --scratch-path .build-fuzz-cov --sanitize=fuzzer
    -Xswiftc -profile-generate -Xswiftc -profile-coverage-mapping)
"$SWIFT" build "${FLAGS[@]}" --product sesame-fuzz 2>&1 | tail -3
FUZZER=$("$SWIFT" build "${FLAGS[@]}" --show-bin-path)/sesame-fuzz

rm -rf "$WORK/profiles"
mkdir -p "$WORK/profiles"
# %m: one profile per binary, merged online; -runs=0 runs the corpus once, mutating nothing.
LLVM_PROFILE_FILE="$WORK/profiles/fuzz-%m.profraw" "$FUZZER" "$WORK/corpus" "$WORK/seeds" \
    -runs=0 -timeout=10 -rss_limit_mb=2048 -max_len=65536 >"$WORK/coverage-run.log" 2>&1
grep -E '^#[0-9]+\s+(INITED|DONE)' "$WORK/coverage-run.log" | tail -1 || true

"$LLVM_PROFDATA" merge -sparse "$WORK"/profiles/*.profraw -o "$WORK/fuzz.profdata"
"$LLVM_COV" report "$FUZZER" -instr-profile="$WORK/fuzz.profdata" \
    -ignore-filename-regex='/(\.build[^/]*|Fuzz)/' \
    "$PWD/Generator/SesameGenerator" | tee "$WORK/coverage.txt"
