@_spi(Generated) import SesameDescription
import Foundation
@testable import SesameGenerator

/// Helpers for the store generator's tests.
enum StoreFixture {
    static let path = "Schema/store.yaml"

    /// Translates YAML text as `Schema/store.yaml`.
    static func translate(_ yaml: String) -> (StoreIR?, [Diagnostic]) {
        let source = SchemaSource(path: path, relativePath: "store.yaml", text: yaml)
        let (file, parseDiagnostics) = YAMLReader.parse(source)
        precondition(parseDiagnostics.isEmpty, "fixture YAML must parse: \(parseDiagnostics)")
        return StoreTranslator.translate(file)
    }

    /// The errors of a translation as `line:column: message`.
    static func errors(_ yaml: String) -> [String] {
        translate(yaml).1.filter { $0.severity == .error }.map { "\($0.location!.line):\($0.location!.column): \($0.message)" }
    }

    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func referenceYAML() throws -> String {
        try String(contentsOf: root.appendingPathComponent("Schema/store.yaml"), encoding: .utf8)
    }

    /// An SDK IR with only a name: the store renderer reads nothing else.
    static func sdk(_ name: String = "ReferenceSDK") -> SDKIR {
        let location = SourceLocation(file: "Schema/sdk.yaml", line: 1, column: 1)
        let credential = CredentialIR(
            value: CredentialDescription(
                accessTokenField: "access_token", header: "Authorization", format: .variable(.accessToken),
                rejection: RejectionRule(status: 401), details: RequestDescription(name: "me", method: .get, path: "/me"),
                userIDField: "uid"),
            tokenModel: ModelRef(declaredName: "TokenResponse", swiftPath: "TokenResponse"),
            detailsOperation: OperationRef(name: "me", swiftName: "me"), location: location)
        return SDKIR(
            name: name, description: nil, baseURL: "https://example.com", credential: credential, lifecycle: LifecycleIR(),
            methods: [], operations: [], models: [], errors: ErrorsIR(codeField: "error", messageField: nil, errors: []),
            events: EventsIR(stream: nil, events: []), store: nil)
    }

    /// The SQL statements of a migration, in order.
    static func sql(_ migration: StoreMigrationIR) -> [String] {
        migration.operations.flatMap(StoreSQL.statements)
    }
}
