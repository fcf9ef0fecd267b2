// swift-tools-version: 6.1
import PackageDescription

// Targets are split so that the generator and its CLI build without the networking stack:
// `SesameGenerator` and `sesame` need only Yams and swift-argument-parser.
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
        .library(name: "SesameSoak", targets: ["SesameSoak"]),
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
                intent: .custom(verb: "generate-sdk", description: "Generates a target's Sesame SDK from its YAML into the package (--check: fail when stale)"),
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
            ]
        ),
        // Per-user contexts, SQLite stores and migrations, and the SQLite session store: the
        // only module that links GRDB. Generated SDKs import it only when they declare stores.
        .target(
            name: "SesameStore",
            dependencies: ["Sesame", .product(name: "GRDB", package: "GRDB.swift")]
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

        // MARK: Reference back-end and demo
        .target(
            name: "ReferenceServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "reference-server",
            dependencies: ["ReferenceServer"]
        ),
        // A stress harness for the runtime (docs in Sources/SesameSoak), not part of the SDK.
        .target(
            name: "SesameSoak",
            dependencies: ["ReferenceSDK", "Sesame",
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")]
        ),
        .executableTarget(
            name: "store-migration-child",
            dependencies: ["ReferenceSDK", "Sesame", "SesameStore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/Support/store-migration-child"
        ),
        .executableTarget(
            name: "sesame-demo",
            dependencies: ["ReferenceSDK", "ReferenceServer", "Sesame"]
        ),

        // MARK: Tests
        .testTarget(
            name: "SesameGeneratorTests",
            dependencies: [
                "SesameGenerator",
                .product(name: "Yams", package: "Yams"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "OddNamesTests",
            dependencies: ["OddNamesSDK", "Sesame", "SesameStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "SesameTests",
            dependencies: ["Sesame"]
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
            dependencies: ["SesameStore", "Sesame", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "ReferenceSDKTests",
            dependencies: ["ReferenceSDK", "Sesame", "SesameStore", "SesameSoak", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "ReferenceServerTests",
            dependencies: [
                "ReferenceServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["ReferenceSDK", "ReferenceServer", "Sesame"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
