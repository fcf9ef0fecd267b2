import Testing
@testable import SesameGenerator

/// Model names against the types the generated code uses and the SDK itself declares
/// (the naming pass's one list): a shadowing name is renamed, a clash is an error.
@Suite struct GeneratedTypeNameTests {
    @Test func modelsThatWouldShadowSwiftTypesAreRenamed() throws {
        let generation = Fixture.generate([
            "models.yaml": Fixture.models + "\nDate: { type: object, properties: { at: { type: string, format: date-time } } }\n"
        ])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let swift = Fixture.model("DateModel", in: generation)
        #expect(swift.contains("public struct DateModel: Codable, Hashable, Sendable {"))
        #expect(swift.contains("public var at: Date?"))
    }

    @Test func modelThatClashesWithAGeneratedTypeIsAnError() {
        #expect(
            Fixture.printed(models: "TestSDKError: { type: string }") == [
                "Schema/models.yaml:13:1: error: model 'TestSDKError' would be the Swift type TestSDKError, which the SDK itself declares; rename it"
            ])
    }

    @Test func modelThatClashesWithTheStoreNamespaceIsAnError() {
        let store = "persistence:\n  1:\n    Note: { id: { type: text, primaryKey: true } }\n"
        #expect(
            Fixture.printed(["models.yaml": Fixture.models + "\nTestSDKStore: { type: string }\n", "store.yaml": store]) == [
                "Schema/models.yaml:13:1: error: model 'TestSDKStore' would be the Swift type TestSDKStore, which the SDK itself declares; rename it"
            ])
        // Without a store.yaml, the SDK declares no TestSDKStore.
        #expect(Fixture.printed(models: "TestSDKStore: { type: string }").isEmpty)
    }
}
