import Foundation
import Testing
@testable import SesameGenerator

/// The issuer comparison (Discovery §4.3, RFC 8414 §3.3) and an edit of sdk.yaml that
/// refuses, writing nothing, rather than change anything it did not mean to.
@Suite struct DiscoverySafetyTests {
    static let parsed = DiscoveryTests.parsed

    // MARK: The issuer

    static func auth0(_ url: String) -> (DiscoveryDocument?, [Diagnostic]) {
        let location = DiscoveryDocument.location(of: URL(string: url)!)
        let data = DiscoveryTests.document(["issuer": #""https://tenant.auth0.com/""#]).replacing(
            Data("idp.example.com".utf8), with: Data("tenant.auth0.com".utf8))
        return DiscoveryDocument.read(data, file: "auth0.json", expectedIssuer: location.issuer, alsoAccepted: location.alsoAccepted)
    }

    @Test(arguments: [
        "https://tenant.auth0.com/", "https://tenant.auth0.com", "https://tenant.auth0.com/.well-known/openid-configuration",
    ])
    func anAuth0IssuerWithItsTrailingSlashIsAccepted(url: String) throws {
        let (document, diagnostics) = Self.auth0(url)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(try #require(document).issuer == "https://tenant.auth0.com/")
    }

    @Test func theIssuerURLIsFetchedWithoutItsSlashAndComparedAsGiven() {
        let location = DiscoveryDocument.location(of: URL(string: "https://tenant.auth0.com/")!)
        #expect(location.issuer == "https://tenant.auth0.com/")
        #expect(location.fetch.absoluteString == "https://tenant.auth0.com/.well-known/openid-configuration")
    }

    @Test func anIssuerWithAPathIsComparedExactly() {
        // `https://idp.example.com/tenant` names that issuer only: the document's `…/tenant/` is another.
        let location = DiscoveryDocument.location(of: URL(string: "https://idp.example.com/tenant")!)
        let (document, diagnostics) = DiscoveryDocument.read(
            DiscoveryTests.document(["issuer": #""https://idp.example.com/tenant/""#]), file: "idp.json",
            expectedIssuer: location.issuer, alsoAccepted: location.alsoAccepted)
        #expect(document == nil)
        #expect(diagnostics.contains { $0.message.hasPrefix("issuer 'https://idp.example.com/tenant/' is not the expected issuer") })
    }

    @Test func anotherHostIsRefusedWhateverItsSlash() {
        let location = DiscoveryDocument.location(of: URL(string: "https://tenant.auth0.com")!)
        let (document, _) = DiscoveryDocument.read(
            DiscoveryTests.document(["issuer": #""https://tenant.auth0.com.evil.example/""#]), file: "idp.json",
            expectedIssuer: location.issuer, alsoAccepted: location.alsoAccepted)
        #expect(document == nil)
    }

    // MARK: issuerInResponses

    @Test func anAbsentFlagKeepsTheSchemasTrueWithAWarning() {
        let (document, _) = DiscoveryTests.read(["authorization_response_iss_parameter_supported": ""])
        let read = try! #require(document)
        #expect(read.issuerInResponses == nil)
        let text =
            "sdk: Demo\nauthorizationServer:\n  baseURL: https://idp.example.com\n  issuer: https://idp.example.com\n  issuerInResponses: true\n"
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: read)
        #expect(result.text == text)
        #expect(result.diagnostics.contains { $0.severity == .warning && $0.message.contains("issuerInResponses stays true") })
        // Without the schema's true, an absent flag is RFC 9207's false.
        let fresh = DiscoveryImport.update("sdk: Demo\n", file: "sdk.yaml", with: read)
        #expect(fresh.text?.contains("issuerInResponses: false") == true)
    }

    // MARK: Edits refused

    @Test(arguments: [
        // An alias: replacing it would rewrite the anchor's definition (and `server`'s base URL).
        ("sdk: Demo\nserver: { baseURL: &iss https://idp.example.com }\nauthorizationServer:\n  issuer: *iss\n", "issuer is an alias"),
        // An anchor: the value would lose it, and the alias below would no longer resolve.
        ("sdk: Demo\nauthorizationServer:\n  issuer: &iss https://old.example.com\nother: *iss\n", "issuer is anchored"),
        // A folded scalar: the old value on the next line would fold into the new one.
        ("sdk: Demo\nauthorizationServer:\n  issuer: >-\n    https://old.example.com\n", "issuer is a block scalar"),
        ("sdk: Demo\nauthorizationServer:\n  issuer: |\n    https://old.example.com\n", "issuer is a block scalar"),
        // On the next line: the edit cannot say where it ends.
        ("sdk: Demo\nauthorizationServer:\n  issuer:\n    https://old.example.com\n", "issuer is an alias, or its value does not start"),
        ("sdk: Demo\nauthorizationServer:\n  issuer: !!str https://old.example.com\n", "issuer is tagged"),
    ])
    func aValueThatIsNotAOneLineValueOfItsOwnIsRefused(text: String, message: String) {
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: Self.parsed)
        #expect(result.text == nil)
        #expect(result.diagnostics.contains { $0.severity == .error && $0.message.hasPrefix(message) }, "\(result.diagnostics)")
    }

    @Test func aPlainValueContinuedOnTheNextLineIsRefusedByTheReadBack() {
        // Nothing on the value's own line says that it goes on: parsing the result again does.
        let text = "sdk: Demo\nauthorizationServer:\n  issuer: https://old.example.com\n    continued\n  baseURL: https://idp.example.com\n"
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: Self.parsed)
        #expect(result.text == nil)
        #expect(result.diagnostics.contains { $0.message.hasPrefix("the edit would not set issuer to its value: nothing written") })
    }

    @Test func aCRLFFileKeepsItsLineEndings() throws {
        let text = "sdk: Demo\r\nauthorizationServer:\r\n  issuer: https://old.example.com\r\n  other: kept\r\ncredential: {}\r\n"
        let result = try #require(DiscoveryImport.update(text, file: "sdk.yaml", with: Self.parsed).text)
        #expect(
            result
                == "sdk: Demo\r\nauthorizationServer:\r\n  baseURL: https://idp.example.com\r\n  issuerInResponses: true\r\n  issuer: https://idp.example.com\r\n  other: kept\r\ncredential: {}\r\n"
        )
        #expect(!result.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }
}
