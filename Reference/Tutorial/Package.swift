// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Notes",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        // Your checkout of Sesame, beside this folder (or its URL and version).
        .package(name: "Sesame", path: "../sesame"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // The SDK: the YAML in Schema/, the generated code in Generated/, one file of its own.
        .target(
            name: "NotesSDK",
            dependencies: [
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameStore", package: "Sesame"),  // store.yaml: AppSession and its stores
                .product(name: "SesameOpenID", package: "Sesame"),  // openID: ID token validation
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Schema"]
        ),
        // tutorial:begin api
        // The SDK of "Describe your existing back-end": its models are those of api/openapi.yaml.
        .target(
            name: "NotesAPISDK",
            dependencies: [
                .product(name: "Sesame", package: "Sesame"),
                .product(name: "SesameOpenID", package: "Sesame"),
            ],
            exclude: ["Schema", "api"]
        ),
        // tutorial:end api
        // The app: a command-line program.
        .executableTarget(
            name: "notes",
            dependencies: ["NotesSDK", .product(name: "SesameStore", package: "Sesame")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
