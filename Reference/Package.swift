// swift-tools-version: 6.1
import PackageDescription

// The workshop around Sesame, a package of its own so that no app ever resolves it (the root
// Package.swift holds only what apps and back-end teams depend on; docs/packages.md): the
// reference back-end (Hummingbird), the SDK generated from the root's Schema/, the demo, the
// soak harness, the in-memory back-end with fault injection, the child processes of the
// crash and relaunch tests, and the tests that need them (generated-SDK tests, the server's
// tests, end to end over real HTTP). `make test` and `make demo` at the root run them.
//
// `ReferenceSDKTestSupport` and `SesameSoak` are not API: the Benchmarks package reaches them
// through `_ReferenceTestSupport`.
let package = Package(
    name: "SesameReference",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "ReferenceSDK", targets: ["ReferenceSDK"]),
        .library(name: "ReferenceServer", targets: ["ReferenceServer"]),
        // Not API: for the Benchmarks package only (see the comment at the top).
        .library(name: "_ReferenceTestSupport", targets: ["ReferenceSDKTestSupport", "SesameSoak"]),
        .executable(name: "reference-server", targets: ["reference-server"]),
        .executable(name: "sesame-demo", targets: ["sesame-demo"]),
    ],
    dependencies: [
        // Named, so that `package: "Sesame"` works whatever the checkout's folder is called.
        .package(name: "Sesame", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The reference server's PKCE check on Linux (CryptoKit's API), and its ID token signing
        // keys (CryptoExtras for RSA).
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // The reference server's DPoP proof verification (RFC 9449: ES256 over the proof's
        // public JWK), as the root's SesameDPoP signs them.
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
    ],
    targets: [
        // MARK: The generated reference SDK (never edited by hand: `make generate` at the root)
        .target(
            name: "ReferenceSDK",
            dependencies: [
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),
                // Schema/ declares openID: the generated code validates ID tokens with it.
                .product(name: "SesameOpenID", package: "Sesame"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["README.md"]
        ),

        // The SDK generated from the root's Tests/Fixtures/ClaimsDetails/Schema (`make generate`):
        // one OpenID Connect sign-in whose ID token's claims are the user's details
        // (`details: idToken`). EndToEndTests runs it against the reference server.
        .target(
            name: "ClaimsDetailsSDK",
            dependencies: [
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameOpenID", package: "Sesame"),
            ]
        ),

        // The SDK generated from the root's Tests/Fixtures/BoundTokens/Schema (`make generate`):
        // DPoP-bound tokens (credential.dpop) and a pushed browser sign-in (browser.pushed).
        // EndToEndTests runs it against the reference server with DPoP on.
        .target(
            name: "BoundTokensSDK",
            dependencies: [.product(name: "Sesame", package: "Sesame")]
        ),

        // MARK: The tutorial (docs/tutorial): its SDK and its app, as a reader writes them
        // The SDK generated from Sources/NotesSDK/Schema (`make generate` at the root; `make
        // check` keeps it in step) and its one hand-written file. TutorialTests runs the app.
        .target(
            name: "NotesSDK",
            dependencies: [
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),
                .product(name: "SesameOpenID", package: "Sesame"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Schema"]
        ),
        .executableTarget(
            name: "notes",
            dependencies: ["NotesSDK", .product(name: "SesameStore", package: "Sesame")]
        ),

        // The SDK of the second tutorial (docs/tutorial/existing-back-end.md): generated from
        // Sources/NotesAPISDK/Schema, whose models are those of the OpenAPI document in api/.
        .target(
            name: "NotesAPISDK",
            dependencies: [
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameOpenID", package: "Sesame"),
            ],
            exclude: ["Schema", "api"]
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
                // The OpenID provider's RSA signing key (RS256).
                .product(name: "CryptoExtras", package: "swift-crypto"),
                // DPoP proofs: ES256 verification with the proof's own public key.
                .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
        .executableTarget(
            name: "reference-server",
            dependencies: ["ReferenceServer", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "sesame-demo",
            dependencies: [
                "ReferenceSDK", "ReferenceServer", "ReferenceSDKTestSupport", "BoundTokensSDK",
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),
                .product(name: "SesameDPoP", package: "Sesame"),
                .product(name: "_SesameTestSupport", package: "Sesame"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),

        // MARK: Test support and harnesses (not API)
        .target(
            name: "ReferenceSDKTestSupport",
            dependencies: [
                "ReferenceSDK",
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),
                .product(name: "_SesameTestSupport", package: "Sesame"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        // A stress harness for the runtime (docs in Reference/Sources/SesameSoak), not part of the SDK.
        .target(
            name: "SesameSoak",
            dependencies: [
                "ReferenceSDK", "ReferenceSDKTestSupport",
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "_SesameTestSupport", package: "Sesame"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "app-session-child",
            dependencies: [
                "ReferenceSDK",
                .product(name: "SesameStore", package: "Sesame"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "session-sharing-child",
            dependencies: ["ReferenceSDKTestSupport"]
        ),
        .executableTarget(
            name: "bound-session-child",
            dependencies: [
                "BoundTokensSDK",
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameDPoP", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "store-migration-child",
            dependencies: [
                "ReferenceSDK",
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),

        // MARK: Tests
        .testTarget(
            name: "ReferenceSDKTests",
            dependencies: [
                "ReferenceSDK", "ReferenceSDKTestSupport", "SesameSoak",
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),
                .product(name: "_SesameTestSupport", package: "Sesame"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ReferenceServerTests",
            dependencies: [
                "ReferenceServer",
                .product(name: "_SesameTestSupport", package: "Sesame"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                // DPoP tests: valid proofs from the runtime's signer, malformed ones by jwt-kit.
                .product(name: "SesameDPoP", package: "Sesame"),
                .product(name: "JWTKit", package: "jwt-kit"),
                // Passkey tests: the runtime's software authenticator as the client, and
                // assertions forged with its keys.
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The tutorial's app, command by command, against the reference server over loopback;
        // and the tutorial's listings, compared with the files they come from.
        .testTarget(
            name: "TutorialTests",
            dependencies: [
                "notes", "NotesAPISDK", "ReferenceServer",
                .product(name: "_SesameTestSupport", package: "Sesame"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "ReferenceSDK", "ReferenceServer", "ClaimsDetailsSDK", "BoundTokensSDK",
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameOpenID", package: "Sesame"),
                .product(name: "SesameDPoP", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),
                .product(name: "_SesameTestSupport", package: "Sesame"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
