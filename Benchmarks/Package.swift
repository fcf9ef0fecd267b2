// swift-tools-version: 6.1
import PackageDescription

// The generator's benchmarks, a package of its own so that the main build stays light.
// Run in release: `swift run -c release sesame-bench all` (or `make bench` at the root).
let package = Package(
    name: "SesameBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Sesame", path: ".."),
        // The reference SDK, the soak and the in-memory back-end (docs/packages.md).
        .package(name: "SesameReference", path: "../Reference"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The runtime of swift-openapi-generator's types, the third side of `decode` and `encode`.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        // `id-token`: tokens signed with jwt-kit, keys made with swift-crypto's RSA (both
        // already in the graph through SesameOpenID).
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // The issues' targets and the verdict of `all`, pure and without dependencies, so that
        // its tests build in seconds: `swift build --product SesameBenchmarksPackageTests`.
        .target(name: "BenchmarkTargets"),
        .testTarget(name: "BenchmarkTargetsTests", dependencies: ["BenchmarkTargets"]),
        // `decode` and `encode` (issue 30): the models generated from Schema/Decode (`make
        // generate`), swift-openapi-generator 1.14.3's types for the same schemas (Peer/Decode),
        // and a malloc that counts a thread's allocations.
        .target(
            name: "DecodeModels",
            dependencies: [.product(name: "Sesame", package: "Sesame")],
            path: "Sources/DecodeModels/Generated"
        ),
        .target(
            name: "PeerDecodeModels",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            path: "Sources/PeerDecodeModels/Generated"
        ),
        .target(name: "AllocationCounter"),
        .executableTarget(
            name: "sesame-bench",
            dependencies: [
                "BenchmarkTargets",
                "DecodeModels",
                "PeerDecodeModels",
                "AllocationCounter",
                .product(name: "SesameGenerator", package: "Sesame"),
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),
                .product(name: "SesameOpenID", package: "Sesame"),
                .product(name: "SesameDPoP", package: "Sesame"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "ReferenceSDK", package: "SesameReference"),
                // Not API: the shared test support, the soak harness and the in-memory back-end
                // (the root and Reference/ Package.swift files say why).
                .product(name: "_SesameTestSupport", package: "Sesame"),
                .product(name: "_ReferenceTestSupport", package: "SesameReference"),
                .product(name: "ReferenceServer", package: "SesameReference"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
