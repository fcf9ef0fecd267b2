// swift-tools-version: 6.1
import PackageDescription

// A libFuzzer target over the generator's read → validate → render path, a package of its
// own so that the root build never sees `-sanitize=fuzzer`. Built and run by
// `scripts/fuzz.sh` (`make fuzz` at the root); see docs/fuzzing.md.
let package = Package(
    name: "SesameFuzz",
    dependencies: [
        .package(name: "Sesame", path: "..")
    ],
    targets: [
        // One file and no `main.swift`: SwiftPM compiles it with `-parse-as-library`, so the
        // `main` that links in is libFuzzer's, which calls `LLVMFuzzerTestOneInput`.
        .executableTarget(
            name: "sesame-fuzz",
            dependencies: [.product(name: "SesameGenerator", package: "Sesame")]
        )
    ],
    swiftLanguageModes: [.v6]
)
