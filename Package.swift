// swift-tools-version: 6.1
import PackageDescription

// What apps and back-end teams depend on, and nothing else (docs/packages.md): the runtime
// (`Sesame`), its stores (`SesameStore`, GRDB) and Combine wrapper (`SesameCombine`), the
// generator, its CLI and its two SwiftPM plugins. The reference server, the reference SDK, the
// demo, the soak and the end-to-end tests live in Reference/, a package of its own that no app
// resolves (as Benchmarks/ and Fuzz/ are); `scripts/check-consumer.sh` (make check) fails when
// an app's dependency graph grows.
//
// The generator and its CLI build without the networking stack: they need only Yams and
// swift-argument-parser. Test support (docs/testing.md): `SesameTestSupport` holds what every
// test target needs (a manual clock, log capture, temporary directories, polling, a recording
// performer, form decoding, a seeded generator) and depends on the runtime only. It is not API:
// Reference/ and Benchmarks/ (packages of their own, which see only products) reach it through
// `_SesameTestSupport`, whose underscore says so, as swift-syntax's `_SwiftSyntaxTestSupport`
// does. Apps must not depend on it. Dependencies used only by test targets (swift-snapshot-
// testing) are not resolved by a package that depends on this one.
let package = Package(
    name: "Sesame",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Sesame", targets: ["Sesame"]),
        // The on-device stores (GRDB): only SDKs whose schema declares stores need it.
        .library(name: "SesameStore", targets: ["SesameStore"]),
        // The Combine wrapper (`service.forCombine`): only apps that use Combine link it.
        .library(name: "SesameCombine", targets: ["SesameCombine"]),
        // OpenID Connect ID token validation (jwt-kit): only apps whose schema signs in with
        // OpenID Connect link it, so the others resolve no JOSE library (docs/packages.md).
        .library(name: "SesameOpenID", targets: ["SesameOpenID"]),
        // DPoP (RFC 9449): the proof key, its stores, proofs and server nonces (jwt-kit): only
        // apps that bind their tokens to a key link it.
        .library(name: "SesameDPoP", targets: ["SesameDPoP"]),
        .library(name: "SesameGenerator", targets: ["SesameGenerator"]),
        // Not API: for the Reference and Benchmarks packages only (see the comment at the top).
        .library(name: "_SesameTestSupport", targets: ["SesameTestSupport"]),
        .executable(name: "sesame", targets: ["sesame"]),
        .plugin(name: "SesameBuildPlugin", targets: ["SesameBuildPlugin"]),
        .plugin(name: "SesameCommandPlugin", targets: ["SesameCommandPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        // Tests only (SesameTests measures the runtime's transport against it): apps never
        // resolve it, the runtime's `StreamingURLSessionTransport` replaced it.
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // PKCE's S256 challenge on Linux (CryptoKit's API); Apple platforms use CryptoKit itself.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // JWS on every platform: ID tokens (SesameOpenID: JWKS, RS256/PS256/ES256) and DPoP
        // proofs (SesameDPoP: ES256 signing with a P-256 key). Used by those two modules only.
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        // `make docs` only: the generate-documentation command plugin, linked into no target.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: Generator
        .target(
            name: "SesameGenerator",
            dependencies: ["SesameDescription", .product(name: "Yams", package: "Yams")],
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
        // The protocol as values, shared by the generator and the runtime (Foundation only).
        .target(name: "SesameDescription"),
        .target(
            name: "Sesame",
            dependencies: [
                "SesameDescription",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux])),
            ]
        ),
        // OpenID Connect: the ID token validator (OIDC Core 3.1.3.7) over jwt-kit, and the JWKS
        // cache. The runtime holds the rules' typed errors and calls it through a protocol.
        .target(
            name: "SesameOpenID",
            dependencies: [
                "Sesame", "SesameDescription", .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // DPoP (RFC 9449): the P-256 proof key and its stores, proof JWTs signed by jwt-kit,
        // and the servers' nonces. Self-contained: the runtime does not call it yet.
        .target(
            name: "SesameDPoP",
            dependencies: [
                "Sesame", .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
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
        // The SDK generated from Tests/Fixtures/OddNames/Schema, whose names are as odd as the
        // format allows: that it compiles is half of its test (Tests/OddNamesTests is the rest).
        .target(
            name: "OddNamesSDK",
            // SesameOpenID: its schema declares openID (with a claims model named `self`).
            dependencies: ["Sesame", "SesameStore", "SesameOpenID", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/Fixtures/OddNames/Generated"
        ),

        // The SDK generated from Tests/Fixtures/Conformance/Schema: a model per JSON Schema
        // keyword and format Sesame supports (Tests/ConformanceTests decodes instances of each).
        .target(
            name: "ConformanceSDK",
            dependencies: ["Sesame"],
            path: "Tests/Fixtures/Conformance/Generated"
        ),
        // The SDK generated from Tests/Fixtures/JSONSemantics/Schema: sdk.yaml's model options
        // set to JSON Schema's meaning (closed enums, formats as annotations); Tests/ConformanceTests
        // decodes its models beside the conformance fixture's, which keeps the defaults.
        .target(
            name: "JSONSemanticsSDK",
            dependencies: ["Sesame"],
            path: "Tests/Fixtures/JSONSemantics/Generated"
        ),
        // The SDK generated from Tests/Fixtures/AccountsAPI/Schema, whose models are an OpenAPI 3.1
        // document's by reference (Tests/Fixtures/AccountsAPI/api/openapi.yaml); Tests/AccountsAPITests
        // decodes the document's examples.
        .target(
            name: "AccountsAPISDK",
            dependencies: ["Sesame"],
            path: "Tests/Fixtures/AccountsAPI/Generated"
        ),

        // MARK: Test support (not API; see the comment at the top)
        .target(
            name: "SesameTestSupport",
            dependencies: [
                "Sesame", .product(name: "Logging", package: "swift-log"),
                // The headless browser sends its requests through a ClientTransport.
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Tests/Support/SesameTestSupport"
        ),
        // MARK: Tests
        .testTarget(
            name: "SesameGeneratorTests",
            dependencies: [
                "SesameGenerator",
                "SesameDescription",
                "SesameTestSupport",
                .product(name: "Yams", package: "Yams"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "OddNamesTests",
            dependencies: [
                "OddNamesSDK", "Sesame", "SesameStore", "SesameOpenID", "SesameTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["ConformanceSDK", "JSONSemanticsSDK", "Sesame", "SesameTestSupport"]
        ),
        .testTarget(
            name: "AccountsAPITests",
            dependencies: ["AccountsAPISDK", "Sesame"]
        ),
        .testTarget(
            name: "SesameTests",
            dependencies: [
                "Sesame", "SesameTestSupport",
                // The passkey tests verify the software authenticator's signatures (CryptoKit on Apple).
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux])),
                // The transport the runtime's own replaced, measured against it (tests only).
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ]
        ),
        .testTarget(
            name: "SesameOpenIDTests",
            dependencies: [
                "SesameOpenID", "Sesame", "SesameTestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SesameDPoPTests",
            dependencies: [
                "SesameDPoP", "Sesame", "SesameTestSupport",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
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
    ],
    swiftLanguageModes: [.v6]
)

// Under ThreadSanitizer (scripts/tsan.sh sets SESAME_TSAN=1, with a scratch path of its own)
// the package holds only what the instrumented suites need: the runtime, its stores, the test
// support and their two test targets. The generator, the CLI and its plugins, the fixture
// SDKs, OpenID Connect and DPoP (jwt-kit), Combine and their tests are plain synchronous code,
// or are tested without TSan; building them instrumented would double the cold build for
// suites that never run there. SwiftPM evaluates the manifest again when the variable
// changes; it warns there that Yams, swift-snapshot-testing, OpenCombine and jwt-kit are used
// by no target.
if Context.environment["SESAME_TSAN"] == "1" {
    let instrumented: Set<String> = [
        "SesameDescription", "Sesame", "SesameStore", "SesameTestSupport", "SesameTests", "SesameStoreTests",
    ]
    package.targets.removeAll { !instrumented.contains($0.name) }
    package.products.removeAll { !["Sesame", "SesameStore"].contains($0.name) }
}
