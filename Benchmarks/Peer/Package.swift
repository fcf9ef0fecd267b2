// swift-tools-version: 6.1
import PackageDescription

// Sesame side by side with swift-openapi-generator: a package of its own, so that neither
// the main build, the Benchmarks package nor CI pays for OpenAPIKit. Nothing builds it but
// `Benchmarks/Peer/run.sh` (docs/performance.md, "Against swift-openapi-generator").
let package = Package(
    name: "SesamePeerBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [
        // The `sesame` CLI, built from this checkout.
        .package(name: "Sesame", path: "../.."),
        // The peer's CLI, `swift-openapi-generator`, at the version the issue names.
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    ],
    targets: [
        // Foundation only: it writes the synthetic API twice and runs the two CLIs (and the
        // Swift builds of what they generate) as child processes, timing each with wait4.
        .executableTarget(name: "peer-bench")
    ],
    swiftLanguageModes: [.v6]
)
