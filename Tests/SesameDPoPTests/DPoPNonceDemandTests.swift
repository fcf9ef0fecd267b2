import Foundation
import HTTPTypes
import SesameDPoP
import Testing

/// Whether a response asks for a proof with a nonce (`DPoPNonces.asksForNonce`).
@Suite struct DPoPNonceDemandTests {
    func response(_ status: Int, challenges: [String] = []) -> HTTPResponse {
        var fields = HTTPFields()
        for challenge in challenges { fields.append(HTTPField(name: .wwwAuthenticate, value: challenge)) }
        return HTTPResponse(status: .init(code: status), headerFields: fields)
    }

    // MARK: The token endpoint: 400 and a JSON error

    @Test func aTokenEndpointErrorAsksForANonce() {
        let body = Data(#"{"error":"use_dpop_nonce","error_description":"Authorization server requires nonce in DPoP proof"}"#.utf8)
        #expect(DPoPNonces.asksForNonce(response(400), body: body))
        #expect(DPoPNonces.asksForNonce(response(400), body: Data(#" { "error" : "use_dpop_nonce" } "#.utf8)))
    }

    @Test(arguments: [
        #"{"error":"invalid_dpop_proof"}"#, #"{"error":"USE_DPOP_NONCE"}"#, #"{"error":["use_dpop_nonce"]}"#,
        #"{"error_description":"use_dpop_nonce"}"#,
        #"["use_dpop_nonce"]"#, "use_dpop_nonce", "", #"{"error":"use_dpop_nonce""#,
    ])
    func anotherBodyAsksForNothing(_ body: String) {
        #expect(!DPoPNonces.asksForNonce(response(400), body: Data(body.utf8)))
    }

    @Test func noBodyOrAnotherStatusAsksForNothing() {
        let body = Data(#"{"error":"use_dpop_nonce"}"#.utf8)
        #expect(!DPoPNonces.asksForNonce(response(400), body: nil))
        for status in [200, 401, 403, 500] { #expect(!DPoPNonces.asksForNonce(response(status), body: body), "\(status)") }
    }

    @Test func aBodyPastTheLimitIsNotRead() {
        let padding = String(repeating: " ", count: DPoPNonces.maximumErrorBodySize)
        #expect(!DPoPNonces.asksForNonce(response(400), body: Data(#"{"error":"use_dpop_nonce"}\#(padding)"#.utf8)))
    }

    // MARK: A resource server: 401 and a DPoP challenge

    @Test func theRFCsChallengeAsksForANonce() {
        // RFC 9449 §9.
        let challenge = #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#
        #expect(DPoPNonces.asksForNonce(response(401, challenges: [challenge]), body: nil))
    }

    @Test(arguments: [
        #"dpop error="use_dpop_nonce""#, #"DPOP error="use_dpop_nonce""#, #"DPoP ERROR="use_dpop_nonce""#,
        "DPoP error=use_dpop_nonce", #"DPoP   error  =  "use_dpop_nonce"  "#, #"DPoP algs="ES256 PS256", error="use_dpop_nonce""#,
        #"DPoP error="use\_dpop\_nonce""#, #"DPoP error_description="a \"quoted, comma\" text", error="use_dpop_nonce""#,
    ])
    func aDPoPChallengeInAnySpellingAsksForANonce(_ challenge: String) {
        #expect(DPoPNonces.asksForNonce(response(401, challenges: [challenge]), body: nil))
    }

    @Test func aDPoPChallengeBesideOthersAsksForANonce() {
        for challenges in [
            [#"Bearer realm="api", DPoP error="use_dpop_nonce""#],
            [#"Basic realm="x", Bearer error="invalid_token", DPoP algs="ES256", error="use_dpop_nonce""#],
            [#"Newauth abc==, DPoP error="use_dpop_nonce""#],
            [#"Bearer realm="api""#, #"DPoP error="use_dpop_nonce""#],
        ] {
            #expect(DPoPNonces.asksForNonce(response(401, challenges: challenges), body: nil), "\(challenges)")
        }
    }

    @Test(arguments: [
        // The error belongs to another scheme's challenge.
        #"Bearer error="use_dpop_nonce""#, #"Bearer realm="api", error="use_dpop_nonce", DPoP algs="ES256""#,
        #"DPoPx error="use_dpop_nonce""#,
        // Another error, or the words inside a quoted string.
        #"DPoP error="invalid_token""#, #"DPoP error="USE_DPOP_NONCE""#,
        #"Bearer error_description="DPoP error=\"use_dpop_nonce\"""#, #"DPoP error_description="error=\"use_dpop_nonce\"""#,
        // A token68, not a parameter.
        "DPoP use_dpop_nonce", "DPoP error=",
        // Malformed: unterminated, a stray character, a parameter without a scheme, repeated.
        #"DPoP error="use_dpop_nonce"#, #"DPoP "x", error="use_dpop_nonce""#, #"error="use_dpop_nonce""#,
        #"DPoP error="invalid_token", error="use_dpop_nonce""#, #"DPoP error="use_dpop_nonce" junk"#,
        #"DPoP error="use_dpop_nonce\"#, "DPoP error=\"use_dpop_\u{01}nonce\"",
    ])
    func aChallengeThatDoesNotSayItAsksForNothing(_ challenge: String) {
        #expect(!DPoPNonces.asksForNonce(response(401, challenges: [challenge]), body: nil))
    }

    @Test func aChallengeOnAnotherStatusAsksForNothing() {
        for status in [400, 403, 200] {
            #expect(!DPoPNonces.asksForNonce(response(status, challenges: [#"DPoP error="use_dpop_nonce""#]), body: nil))
        }
    }

    @Test func aFieldPastTheLimitIsNotRead() {
        let challenge = #"DPoP error="use_dpop_nonce", error_description="\#(String(repeating: "x", count: 8192))""#
        #expect(!DPoPNonces.asksForNonce(response(401, challenges: [challenge]), body: nil))
    }
}
