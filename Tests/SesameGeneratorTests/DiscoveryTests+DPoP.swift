import Foundation
import Testing
@testable import SesameGenerator

/// `sesame discover` and `credential.dpop`: the server's `dpop_signing_alg_values_supported`
/// written into `algorithms` in place; DPoP never turned on by the import.
@Suite struct DiscoveryDPoPTests {
    static func document(_ algorithms: String? = #"["ES256", "PS256"]"#) throws -> DiscoveryDocument {
        try #require(DiscoveryTests.read(algorithms.map { ["dpop_signing_alg_values_supported": $0] } ?? [:]).0)
    }

    static let server =
        "sdk: Demo\nauthorizationServer: { baseURL: https://idp.example.com/oauth2, issuer: https://idp.example.com, issuerInResponses: true }\n"

    @Test func theAlgorithmsAreReplacedInPlace() throws {
        let text = Self.server + "credential:\n  token: { model: Token }\n  dpop: { algorithms: [ES256] }   # proofs\n  details: me\n"
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: try Self.document())
        #expect(
            result.text
                == Self.server
                + "credential:\n  token: { model: Token }\n  dpop: { algorithms: [ES256, PS256] }   # proofs\n  details: me\n")
        #expect(
            result.diagnostics.contains { $0.message == "credential.dpop.algorithms: [ES256, PS256], the server's list" },
            "\(result.diagnostics)")
        let once = try #require(result.text)
        #expect(DiscoveryImport.update(once, file: "sdk.yaml", with: try Self.document()).text == once)
    }

    @Test func aBlockSequenceIsLeftWithANote() throws {
        let text = Self.server + "credential:\n  dpop:\n    algorithms:\n      - ES256\n"
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: try Self.document())
        #expect(result.text == text)
        #expect(
            result.diagnostics.contains {
                $0.message == "credential.dpop.algorithms: write [ES256, PS256], the server's list (not written)"
            })
    }

    @Test func aSchemaWithoutDPoPGetsANoteAndNoChange() throws {
        let text = Self.server + "credential:\n  token: { model: Token }\n"
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: try Self.document())
        #expect(result.text == text)
        #expect(
            result.diagnostics.contains {
                $0.severity == .note && $0.message.hasPrefix("dpop_signing_alg_values_supported: ES256, PS256: the server can bind tokens")
            })
    }

    @Test func aServerWithoutDPoPKeepsTheSchemasWithAWarning() throws {
        let text = Self.server + "credential:\n  dpop: { algorithms: [ES256] }\n"
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: try Self.document(nil))
        #expect(result.text == text)
        #expect(result.diagnostics.contains { $0.severity == .warning && $0.message.contains("no dpop_signing_alg_values_supported") })
    }

    @Test func thePushedEndpointIsNamedForBrowserPushed() throws {
        let document = try #require(
            DiscoveryTests.read(["pushed_authorization_request_endpoint": #""https://idp.example.com/oauth2/par""#]).0)
        let result = DiscoveryImport.update(Self.server, file: "sdk.yaml", with: document)
        #expect(
            result.diagnostics.contains {
                $0.message
                    == "pushed_authorization_request_endpoint: /par on the authorization server: a browser step's browser.pushed must use this path"
            }, "\(result.diagnostics)")
    }
}
