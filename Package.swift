// swift-tools-version: 6.1
import PackageDescription

// Targets are split so that the generator and its CLI build without the networking stack:
// `SesameGenerator` and `sesame` need only Yams and swift-argument-parser.
//
// Test support (docs/testing.md): `SesameTestSupport` holds what every test target needs
// (a manual clock, log capture, temporary directories, polling, a recording performer, form
// decoding, a seeded generator) and depends on the runtime only, never on Hummingbird;
// `ReferenceSDKTestSupport` adds the in-memory back-end with fault injection that the soak
// and the malformed-response tests share. The soak (`SesameSoak`) is a harness, not an SDK
// module. None of them is API: the Benchmarks package (a package of its own, which can see
// only products) reaches them through `_SesameTestSupport`, whose underscore says so, as
// swift-syntax's `_SwiftSyntaxTestSupport` does. Apps must not depend on it.
let package = Package(
    name: "Sesame",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Sesame", targets: ["Sesame"]),
        // The on-device stores (GRDB): only SDKs whose schema declares stores need it.
        .library(name: "SesameStore", targets: ["SesameStore"]),
        // The Combine wrapper (`service.forCombine`): only apps that use Combine link it.
        .library(name: "SesameCombine", targets: ["SesameCombine"]),
        .library(name: "SesameGenerator", targets: ["SesameGenerator"]),
        .library(name: "ReferenceSDK", targets: ["ReferenceSDK"]),
        .library(name: "ReferenceServer", targets: ["ReferenceServer"]),
        // Not API: for the Benchmarks package only (see the comment at the top).
        .library(name: "_SesameTestSupport", targets: ["SesameTestSupport", "ReferenceSDKTestSupport", "SesameSoak"]),
        .executable(name: "sesame", targets: ["sesame"]),
        .executable(name: "reference-server", targets: ["reference-server"]),
        .executable(name: "sesame-demo", targets: ["sesame-demo"]),
        .plugin(name: "SesameBuildPlugin", targets: ["SesameBuildPlugin"]),
        .plugin(name: "SesameCommandPlugin", targets: ["SesameCommandPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // PKCE's S256 challenge on Linux (CryptoKit's API); Apple platforms use CryptoKit itself.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // `make docs` only: the generate-documentation command plugin, linked into no target.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: Generator
        .target(
            name: "SesameGenerator",
            dependencies: [.product(name: "Yams", package: "Yams")],
            path: "Generator/SesameGenerator"
        ),
        .executableTarget(
            name: "sesame",
            dependencies: [
                "SesameGenerator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Generator/sesame"
        ),

        // MARK: Plugins (docs/plugins.md)
        .plugin(
            name: "SesameBuildPlugin",
            capability: .buildTool(),
            dependencies: ["sesame"]
        ),
        .plugin(
            name: "SesameCommandPlugin",
            capability: .command(
                intent: .custom(
                    verb: "generate-sdk",
                    description: "Generates a target's Sesame SDK from its YAML into the package (--check: fail when stale)"),
                permissions: [.writeToPackageDirectory(reason: "writes the generated Swift files into the target's Generated/ folder")]
            ),
            dependencies: ["sesame"]
        ),

        // MARK: Runtime
        .target(
            name: "Sesame",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux])),
            ]
        ),
        // Per-user contexts, SQLite stores and migrations, and the SQLite session store: the
        // only module that links GRDB. Generated SDKs import it only when they declare stores.
        .target(
            name: "SesameStore",
            dependencies: [
                "Sesame", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Combine publishers and futures over the service. Apple's Combine where it exists;
        // elsewhere OpenCombine, the same API, so that the wrapper is built and tested on Linux.
        // `Sesame` itself never links either.
        .target(
            name: "SesameCombine",
            dependencies: [
                "Sesame",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android])),
            ]
        ),
        .target(
            name: "ReferenceSDK",
            dependencies: ["Sesame", "SesameStore", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["README.md"]
        ),

        // The SDK generated from Tests/Fixtures/OddNames/Schema, whose names are as odd as the
        // format allows: that it compiles is half of its test (Tests/OddNamesTests is the rest).
        .target(
            name: "OddNamesSDK",
            dependencies: ["Sesame", "SesameStore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/Fixtures/OddNames/Generated"
        ),

        // The SDK generated from Tests/Fixtures/Conformance/Schema: a model per JSON Schema
        // keyword and format Sesame supports (Tests/ConformanceTests decodes instances of each).
        .target(
            name: "ConformanceSDK",
            dependencies: ["Sesame"],
            path: "Tests/Fixtures/Conformance/Generated"
        ),

        // MARK: Reference back-end and demo
        .target(
            name: "ReferenceServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux])),
            ]
        ),
        .executableTarget(
            name: "reference-server",
            dependencies: ["ReferenceServer", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "sesame-demo",
            dependencies: [
                "ReferenceSDK", "ReferenceServer", "Sesame", "SesameStore", "SesameTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),

        // MARK: Test support (not API; see the comment at the top)
        .target(
            name: "SesameTestSupport",
            dependencies: [
                "Sesame", .product(name: "Logging", package: "swift-log"),
                // The headless browser sends its requests through a ClientTransport.
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            path: "Tests/Support/SesameTestSupport"
        ),
        .target(
            name: "ReferenceSDKTestSupport",
            dependencies: [
                "ReferenceSDK", "Sesame", "SesameTestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Tests/Support/ReferenceSDKTestSupport"
        ),
        // A stress harness for the runtime (docs in Sources/SesameSoak), not part of the SDK.
        .target(
            name: "SesameSoak",
            dependencies: [
                "ReferenceSDK", "ReferenceSDKTestSupport", "Sesame", "SesameTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "app-session-child",
            dependencies: ["ReferenceSDK", "SesameStore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/Support/app-session-child"
        ),
        .executableTarget(
            name: "store-migration-child",
            dependencies: ["ReferenceSDK", "Sesame", "SesameStore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/Support/store-migration-child"
        ),

        // MARK: Tests
        .testTarget(
            name: "SesameGeneratorTests",
            dependencies: [
                "SesameGenerator",
                "SesameTestSupport",
                .product(name: "Yams", package: "Yams"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "OddNamesTests",
            dependencies: ["OddNamesSDK", "Sesame", "SesameStore", "SesameTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["ConformanceSDK", "Sesame"]
        ),
        .testTarget(
            name: "SesameTests",
            dependencies: ["Sesame", "SesameTestSupport"]
        ),
        .testTarget(
            name: "SesameCombineTests",
            dependencies: [
                "SesameCombine",
                "Sesame",
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux, .windows, .android])),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        .testTarget(
            name: "SesameStoreTests",
            dependencies: ["SesameStore", "Sesame", "SesameTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "ReferenceSDKTests",
            dependencies: [
                "ReferenceSDK", "ReferenceSDKTestSupport", "Sesame", "SesameStore", "SesameSoak", "SesameTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ReferenceServerTests",
            dependencies: [
                "ReferenceServer",
                "SesameTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ReferenceSDK", "ReferenceServer", "Sesame", "SesameStore", "SesameTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
