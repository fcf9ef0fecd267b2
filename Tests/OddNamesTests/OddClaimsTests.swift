import Foundation
import OddNamesSDK
import OpenAPIRuntime
import HTTPTypes
@_spi(Generated) import Sesame
import SesameOpenID
import Testing

/// The typed claims accessor generated for sdk.yaml's `openID.claims` (a model named `self`):
/// it compiles, reads the ID token the session keeps (here a restored one), and a payload that
/// does not fit the model is an ``IDTokenClaimsMismatch`` that changes nothing.
@Suite struct OddClaimsTests {
    /// Refuses every request: nothing here may reach the network.
    struct NoNetwork: ClientTransport {
        struct Refused: Error {}
        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            throw Refused()
        }
    }

    /// A JWT whose payload is `claims` (its signature is not checked: the token was validated
    /// when it was received, and the accessor only reads it).
    static func idToken(_ claims: String) -> String {
        func base64URL(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return base64URL(#"{"alg":"RS256","kid":"k1"}"#) + "." + base64URL(claims) + ".c2lnbmF0dXJl"
    }

    /// A service that restored a session holding `idToken`, offline so that nothing is checked.
    static func restored(idToken: String?) async -> AuthenticationService<OddNamesSDKSchema> {
        let session = StoredSession(
            credential: Credential(accessToken: "at", idToken: idToken), details: Odd(userId: "u", quoteD: "q"), signedInAt: Date())
        let service = AuthenticationService<OddNamesSDKSchema>(
            configuration: .init(
                transport: NoNetwork(), sessionStore: InMemorySessionStore(session: session), receivesServerEvents: false))
        await service.setConnectivity(online: false)
        _ = await service.restoreSession()
        return service
    }

    @Test func theRestoredIDTokensClaimsAreTyped() async throws {
        let service = await Self.restored(
            idToken: Self.idToken(##"{"iss":"https://odd.example.com","sub":"u","kind\"#":"person","email":"u@example.com"}"##))
        let claims = try await service.idTokenClaims()
        #expect(claims == SelfModel(kind: "person"))
    }

    @Test func claimsThatDoNotFitTheModelAreATypedErrorAndChangeNothing() async throws {
        let service = await Self.restored(idToken: Self.idToken(#"{"iss":"https://odd.example.com","sub":"u","kind":"person"}"#))
        let before = await service.state
        await #expect(throws: IDTokenClaimsMismatch(reason: ##"$.kind"#: required claim is missing"##)) {
            _ = try await service.idTokenClaims()
        }
        await #expect(throws: IDTokenClaimsMismatch(reason: ##"$.kind"#: expected String"##)) {
            _ = try await Self.restored(idToken: Self.idToken(##"{"kind\"#":7}"##)).idTokenClaims()
        }
        await #expect(throws: IDTokenClaimsMismatch(reason: "the ID token is not a JWT whose payload is a JSON object")) {
            _ = try await Self.restored(idToken: "not a token").idTokenClaims()
        }
        #expect(await service.state == before)
        #expect(await service.sessionIDToken != nil)
    }

    @Test func withoutAnIDTokenThereAreNoClaims() async throws {
        #expect(try await Self.restored(idToken: nil).idTokenClaims() == nil)
        let signedOut = AuthenticationService<OddNamesSDKSchema>(configuration: .init(transport: NoNetwork(), receivesServerEvents: false))
        #expect(try await signedOut.idTokenClaims() == nil)
    }
}
