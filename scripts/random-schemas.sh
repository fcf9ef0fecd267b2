#!/usr/bin/env bash
# Generates SDKs from many random *valid* schemas and compiles them all in ONE `swift build`
# (docs/testing.md, "Random schemas": an accepted schema always compiles).
#
#   scripts/random-schemas.sh                 # the CI variant: seed 29, 100 schemas (make random-schemas)
#   scripts/random-schemas.sh random 200      # a fresh seed each run (make soak)
#   scripts/random-schemas.sh 1234 100        # replay a seed a failure printed
#
# scripts/random-schemas.py writes the schema folders and a package with one target per
# folder into .build-random/package; the debug `sesame` CLI generates each SDK into its
# target; then one `swift build` of that package compiles every SDK (its own scratch path,
# .build-random/build, so the runtime it depends on is built once and kept between runs).
# A schema the generator refuses, or an SDK that does not compile, fails the script, which
# prints the seed, the schema's number and its files.
set -euo pipefail
cd "$(dirname "$0")/.."

SWIFT=${SWIFT:-swift}
SEED=${1:-29}
COUNT=${2:-100}
if [ "$SEED" = random ]; then SEED=$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); fi
WORK=.build-random
PACKAGE=$WORK/package

echo "random schemas: seed $SEED, $COUNT schemas (replay: scripts/random-schemas.sh $SEED $COUNT)"
# SESAME=path uses a CLI built already (while another build holds .build's lock).
if [ -z "${SESAME:-}" ]; then
    "$SWIFT" build --product sesame 2>&1 | tail -1
    SESAME=$("$SWIFT" build --show-bin-path)/sesame
fi

# The schemas are written afresh; `sesame generate` rewrites only the Swift files that
# changed, so an SDK that did not change is not compiled again, and the scratch path (the
# built runtime) is kept.
rm -rf "$PACKAGE/Schemas"
python3 scripts/random-schemas.py "$SEED" "$COUNT" "$PACKAGE"

show() {  # the files of schema $1
    (cd "$PACKAGE/Schemas/R$1" && find . -name '*.yaml' | sort | while IFS= read -r file; do
        echo "=== R$1/${file#./}"
        cat "$file"
    done)
}

refused=0
for ((n = 0; n < COUNT; n++)); do
    if ! "$SESAME" generate "$PACKAGE/Schemas/R$n" --output "$PACKAGE/Sources/Random$n" > "$WORK/generate.log" 2>&1; then
        echo "FAIL: the generator refused random schema R$n (seed $SEED), which is valid:"
        cat "$WORK/generate.log"
        show "$n"
        refused=$((refused + 1))
    fi
done
if [ "$refused" -ne 0 ]; then
    echo "FAIL: $refused of $COUNT random schemas refused (seed $SEED; replay: scripts/random-schemas.sh $SEED $COUNT)"
    exit 1
fi

echo "generated $COUNT SDKs; compiling them in one swift build"
start=$(date +%s)
set +e
"$SWIFT" build --package-path "$PACKAGE" --scratch-path "$WORK/build" > "$WORK/build.log" 2>&1
status=$?
set -e
echo "swift build: exit $status in $(($(date +%s) - start)) s (log: $WORK/build.log)"
if [ "$status" -ne 0 ]; then
    grep -E 'error:' "$WORK/build.log" | sort -u | head -40
    # SwiftPM stops at the first module that fails: others may fail too (replay after a fix).
    for n in $(grep -oE 'Sources/Random[0-9]+/[^:]*:[0-9]+:[0-9]+: error:' "$WORK/build.log" | sed -E 's|Sources/Random([0-9]+)/.*|\1|' | sort -un); do
        echo "FAIL: the SDK of random schema R$n (seed $SEED) does not compile; its schema:"
        show "$n"
    done
    echo "FAIL: seed $SEED (replay: scripts/random-schemas.sh $SEED $COUNT)"
    exit 1
fi
echo "ok: $COUNT random schemas (seed $SEED) generated and compiled"
