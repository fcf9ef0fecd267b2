// swift-tools-version: 6.1
import PackageDescription

// A consumer of Sesame's SwiftPM plugins, built by scripts/check-plugins.sh (docs/plugins.md).
// - BuildPluginSDK uses SesameBuildPlugin: its SDK is generated from Schema/ at build time,
//   Session from the AccountsAPI fixture's OpenAPI document by reference (a declared root).
// - CommandPluginSDK is written by `swift package generate-sdk --target CommandPluginSDK`
//   into Sources/CommandPluginSDK/Generated/ (git-ignored here; a real package commits it).
// Each *-check executable uses a generated model and operation, so it does not compile
// unless the SDK was generated.
let package = Package(
    name: "PluginConsumer",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    dependencies: [
        // Named, so that `package: "Sesame"` works whatever the checkout's folder is called.
        .package(name: "Sesame", path: "../../..")
    ],
    targets: [
        .target(
            name: "BuildPluginSDK",
            dependencies: [.product(name: "Sesame", package: "Sesame")],
            plugins: [.plugin(name: "SesameBuildPlugin", package: "Sesame")]
        ),
        .executableTarget(name: "build-plugin-check", dependencies: ["BuildPluginSDK"]),

        .target(
            name: "CommandPluginSDK",
            dependencies: [.product(name: "Sesame", package: "Sesame")],
            // Without a build plugin to claim them, SwiftPM warns about the YAML as unhandled files.
            exclude: ["Schema"]
        ),
        .executableTarget(name: "command-plugin-check", dependencies: ["CommandPluginSDK"]),
    ],
    swiftLanguageModes: [.v6]
)
