import Testing

@testable import SesameGenerator

/// `credential.dpop`: tokens bound to a key of the device (docs/format.md, "credential.dpop").
@Suite struct DPoPBindingTests {
    static func sdk(_ binding: String) -> String {
        Fixture.sdk.replacingOccurrences(of: "  rejected:", with: "  \(binding)\n  rejected:")
    }

    @Test func theBindingIsGeneratedWithTheServersAlgorithms() {
        let generation = Fixture.generate(["sdk.yaml": Self.sdk("dpop: { algorithms: [ES256, PS256] }")])
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        let schema = Fixture.file("TestSDKSchema.swift", in: generation)
        #expect(schema.contains(#"binding: .dpop(DPoPBinding(algorithms: ["ES256", "PS256"])),"#))
        #expect(!schema.contains("header: \"Authorization\""))
    }

    @Test func withoutAlgorithmsProofsAreES256() {
        let generation = Fixture.generate(["sdk.yaml": Self.sdk("dpop: {}")])
        #expect(Fixture.file("TestSDKSchema.swift", in: generation).contains(#"binding: .dpop(DPoPBinding(algorithms: ["ES256"])),"#))
    }

    @Test func aBearerSchemaIsGeneratedAsBefore() {
        let schema = Fixture.file("TestSDKSchema.swift", in: Fixture.generate())
        #expect(schema.contains(#"header: "Authorization","#))
        #expect(!schema.contains("binding:"))
    }

    @Test func aServerWithoutES256IsAnError() {
        #expect(
            Fixture.printed(["sdk.yaml": Self.sdk("dpop: { algorithms: [RS256] }")]) == [
                "Schema/sdk.yaml:5:23: error: Sesame signs DPoP proofs with ES256, which the server's algorithms (RS256) do not list"
            ])
    }

    @Test func dpopBesideApplyIsAnError() {
        let sdk = Self.sdk("dpop: {}\n  apply: { header: Authorization }")
        #expect(
            Fixture.printed(["sdk.yaml": sdk]) == [
                "Schema/sdk.yaml:6:3: error: credential.apply and credential.dpop cannot both say how the token is sent: a DPoP token goes as Authorization: DPoP"
            ])
    }
}
