import Foundation
@testable import Sesame
import Testing
@_spi(Generated) import SesameDescription

/// PKCE (RFC 7636) and the check of the redirect that answers an authorization request.
@Suite struct PKCETests {
    @Test func challengeOfTheRFCExample() {
        // RFC 7636 Appendix B.
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test func freshVerifiersAreUnreservedAndDistinct() {
        let verifiers = (0..<20).map { _ in PKCE().verifier }
        #expect(Set(verifiers).count == 20)
        for verifier in verifiers {
            #expect(verifier.count == 43)
            #expect(verifier.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) })
        }
    }

    @Test func theVerifierIsInNoDescription() {
        let pkce = PKCE()
        #expect(!"\(pkce)".contains(pkce.verifier))
        #expect(!String(reflecting: pkce).contains(pkce.verifier))
    }

    private func request(state: String = "s1") throws -> AuthorizationRequest {
        try AuthorizationRequest(
            step: BrowserAuthorization(
                request: RequestDescription(name: "authorize", method: .get, path: "/authorize", server: .authorization),
                redirectURI: "com.example.app://oauth/callback"),
            baseURL: URL(string: "https://idp.test/tenant")!, clientID: "app id", extra: [("scope", "a b")], state: state,
            pkce: PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
    }

    @Test func authorizationURLCarriesEveryParameterEncoded() throws {
        #expect(
            try request().url.absoluteString
                == "https://idp.test/tenant/authorize?response_type=code&client_id=app+id&redirect_uri=com.example.app%3A%2F%2Foauth%2Fcallback&state=s1&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&scope=a+b"
        )
    }

    @Test(arguments: [
        ("com.example.app://oauth/callback?code=c1&state=s1", "c1"),
        ("com.example.app://oauth/callback?state=s1&code=c%2B1&extra=x", "c+1"),
        ("com.example.app://oauth/callback?state=s1&code=a+b", "a b"),
    ])
    func codeOfAMatchingRedirect(callback: String, code: String) throws {
        #expect(try request().code(from: URL(string: callback)!) == code)
    }

    @Test(arguments: [
        ("com.example.app://oauth/callback?code=c1&state=s2", BrowserSignInError.stateMismatch),
        ("com.example.app://oauth/callback?code=c1", .stateMismatch),
        ("com.example.app://oauth/callback?error=access_denied&state=forged", .stateMismatch),
        ("com.example.app://oauth/callback?state=s1", .malformedRedirect(reason: "it has neither a code nor an error")),
        ("com.evil.app://oauth/callback?code=c1&state=s1", .malformedRedirect(reason: "it is not a URL of the redirect URI")),
        ("com.example.app://oauth/other?code=c1&state=s1", .malformedRedirect(reason: "it is not a URL of the redirect URI")),
        ("com.example.app://evil@oauth/callback?code=c1&state=s1", .malformedRedirect(reason: "it is not a URL of the redirect URI")),
        ("com.example.app://u:p@oauth/callback?code=c1&state=s1", .malformedRedirect(reason: "it is not a URL of the redirect URI")),
        // RFC 6749 §3.1: no parameter more than once, the first one is not taken.
        (
            "com.example.app://oauth/callback?state=s1&code=c1&state=s2",
            .malformedRedirect(reason: "it repeats the parameter 'state' (RFC 6749 §3.1)")
        ),
        (
            "com.example.app://oauth/callback?state=s1&code=c1&code=c2",
            .malformedRedirect(reason: "it repeats the parameter 'code' (RFC 6749 §3.1)")
        ),
    ])
    func redirectsThatGiveNoCode(callback: String, error: BrowserSignInError) throws {
        #expect(throws: error) { try request().code(from: URL(string: callback)!) }
    }

    @Test(arguments: [
        ("com.example.app://oauth/callback?error=access_denied&state=s1", AuthorizationErrorResponse(code: "access_denied")),
        (
            "com.example.app://oauth/callback?error=login_required&error_description=sign+in%21&error_uri=https%3A%2F%2Fidp.test%2Fe&state=s1",
            AuthorizationErrorResponse(code: "login_required", description: "sign in!", uri: "https://idp.test/e")
        ),
        // A code no catalogue knows is kept as it is.
        ("com.example.app://oauth/callback?state=s1&error=x_custom", AuthorizationErrorResponse(code: "x_custom")),
    ])
    func anErrorInTheRedirectKeepsItsCodeDescriptionAndURI(callback: String, error: AuthorizationErrorResponse) throws {
        #expect(throws: error) { try request().code(from: URL(string: callback)!) }
    }

    @Test func anErrorInTheRedirectTakesItsCategoryFromTheCatalogue() {
        let catalogue = ErrorCatalogue(
            codeField: "error", messageField: "error_description",
            codes: ["temporarily_unavailable": .transient, "login_required": .reauthenticationRequired])
        let busy = AuthorizationErrorResponse(code: "temporarily_unavailable", description: "later").response(catalogue: catalogue)
        #expect(busy == ServerErrorResponse(status: 302, code: "temporarily_unavailable", message: "later", category: .transient))
        #expect(AuthorizationErrorResponse(code: "login_required").response(catalogue: catalogue).category == .reauthenticationRequired)
        // Unknown codes are kept, as client errors.
        #expect(
            AuthorizationErrorResponse(code: "x_custom", uri: "https://idp.test/e").response(catalogue: catalogue)
                == ServerErrorResponse(status: 302, code: "x_custom", message: nil, category: .client, uri: "https://idp.test/e"))
    }
}
