// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets, a package of its own so that the root build never sees
// `-sanitize=fuzzer`: `sesame-fuzz` over the generator's read → validate → render path,
// `sesame-fuzz-runtime` over what the runtime reads from servers and local processes (ID
// tokens, device authorization answers, loopback requests; built with `-enable-testing` for
// the internal readers). Built and run by `scripts/fuzz.sh` (`make fuzz` and
// `make fuzz-runtime` at the root); see docs/fuzzing.md.
let package = Package(
    name: "SesameFuzz",
    dependencies: [
        .package(name: "Sesame", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        // One file and no `main.swift`: SwiftPM compiles it with `-parse-as-library`, so the
        // `main` that links in is libFuzzer's, which calls `LLVMFuzzerTestOneInput`.
        .executableTarget(
            name: "sesame-fuzz",
            dependencies: [.product(name: "SesameGenerator", package: "Sesame")]
        ),
        .executableTarget(
            name: "sesame-fuzz-runtime",
            dependencies: [
                .product(name: "Sesame", package: "Sesame"), .product(name: "SesameOpenID", package: "Sesame"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
