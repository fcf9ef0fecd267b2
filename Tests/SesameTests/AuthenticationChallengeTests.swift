import Foundation
import HTTPTypes
import Testing
@_spi(Generated) @testable import Sesame

/// The `WWW-Authenticate` parser (RFC 9110 §11.6.1, RFC 6750 §3) and the RFC 9470 step-up
/// challenge read with it.
@Suite struct AuthenticationChallengeTests {
    @Test func quotedStringsAreUnescapedAndCommasInsideThemDoNotSplit() {
        let challenges = AuthenticationChallenge.parse(#"Bearer realm="a, \"b\" \\ c", error="invalid_token""#)
        #expect(challenges == [AuthenticationChallenge(scheme: "bearer", parameters: ["realm": #"a, "b" \ c"#, "error": "invalid_token"])])
    }

    @Test func severalChallengesInOneValue() {
        let challenges = AuthenticationChallenge.parse(
            #"Basic realm="x", DPoP algs="ES256 PS256", Bearer error = insufficient_user_authentication ,acr_values="mfa""#)
        #expect(challenges.map(\.scheme) == ["basic", "dpop", "bearer"])
        #expect(challenges[1].parameters == ["algs": "ES256 PS256"])
        #expect(challenges[2].parameters == ["error": "insufficient_user_authentication", "acr_values": "mfa"])
    }

    @Test func schemesAloneAndToken68() {
        let challenges = AuthenticationChallenge.parse("Negotiate, Bearer, Custom abc+/9==, Other")
        #expect(challenges.map(\.scheme) == ["negotiate", "bearer", "custom", "other"])
        #expect(challenges[2].token68 == "abc+/9==")
        #expect(challenges[2].parameters.isEmpty)
    }

    @Test func namesAndSchemesAreCaseInsensitive() {
        #expect(
            AuthenticationChallenge.parse(#"BEARER Error="x""#) == [AuthenticationChallenge(scheme: "bearer", parameters: ["error": "x"])])
    }

    @Test func aChallengeThatRepeatsAParameterIsDropped() {
        let challenges = AuthenticationChallenge.parse(
            #"Bearer error="invalid_token", error="insufficient_user_authentication", Basic realm="r""#)
        #expect(challenges == [AuthenticationChallenge(scheme: "basic", parameters: ["realm": "r"])])
    }

    @Test(arguments: [
        #"Bearer error="unterminated"#,  // the quoted string never ends
        #"Bearer error=, realm="x""#,  // a parameter without a value
        #"Bearer error="a" junk"x""#,  // a stray character after a value
        "Bearer error=\"a\u{0}b\"",  // a control character inside a quoted string
        #"error="no scheme""#,
        "\"Bearer\" error=x",
    ])
    func malformedValuesGiveNoChallengeFromTheBreakOn(value: String) {
        #expect(AuthenticationChallenge.parse(value).allSatisfy { $0.parameters["error"] == nil })
    }

    @Test func aStrayCharacterAfterACommaDropsTheChallengeItFollows() {
        let value = #"Bearer error="insufficient_user_authentication", "junk"#
        #expect(AuthenticationChallenge.parse(value).isEmpty)
        #expect(StepUpChallenge(headerFields: [.wwwAuthenticate: value]) == nil)
    }

    @Test func aQuotedPairEscapesNoControlCharacterButHTAB() {
        // RFC 9110 §5.6.4: quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text ).
        for control in ["\u{0}", "\u{1}", "\n", "\r", "\u{7F}"] {
            #expect(AuthenticationChallenge.parse("Bearer error=\"a\\\(control)b\"").isEmpty, "\(control.debugDescription)")
        }
        #expect(AuthenticationChallenge.parse("Bearer error=\"a\\\tb\\ c\"").first?.parameters["error"] == "a\tb c")
    }

    @Test func whatPrecedesAMalformedChallengeIsKept() {
        let challenges = AuthenticationChallenge.parse(#"Basic realm="r", Bearer error="open"#)
        #expect(challenges == [AuthenticationChallenge(scheme: "basic", parameters: ["realm": "r"])])
    }

    @Test func hostileValuesAreBounded() {
        let long = "Bearer error=\"" + String(repeating: "a", count: AuthenticationChallenge.maximumLength) + "\""
        #expect(AuthenticationChallenge.parse(long).isEmpty)
        let manyChallenges = Array(repeating: "Basic", count: 1000).joined(separator: ", ")
        #expect(AuthenticationChallenge.parse(manyChallenges).count == AuthenticationChallenge.maximumChallenges)
        let manyParameters = "Bearer " + (0..<100).map { "p\($0)=v" }.joined(separator: ", ")
        #expect(AuthenticationChallenge.parse(manyParameters).isEmpty)
        let escapes = "Bearer error=\"" + String(repeating: "\\", count: 4000) + "\""
        #expect(AuthenticationChallenge.parse(escapes).first?.parameters["error"]?.count == 2000)
        let commas = String(repeating: ",", count: 8000)
        #expect(AuthenticationChallenge.parse(commas).isEmpty)
    }

    /// Inputs of the largest length read, built to be the parser's worst: escapes inside
    /// quotes, as many parameters and challenges as fit, repeated names, unterminated tails.
    static let worstCases: [String] = {
        let limit = AuthenticationChallenge.maximumLength
        func fill(_ head: String, _ unit: String, _ tail: String = "") -> String {
            head + String(repeating: unit, count: (limit - head.utf8.count - tail.utf8.count) / unit.utf8.count) + tail
        }
        return [
            fill("Bearer error=\"", "\\\"", "\""),  // nested escaped quotes, terminated
            fill("Bearer error=\"", "\\\\"),  // escaped backslashes, never terminated
            fill("Bearer ", "p=\"\\\"v\", "),  // one name repeated
            "Bearer " + (0..<900).map { "p\($0)=\"\\v\"" }.joined(separator: ", ").prefix(limit - 7),  // distinct names
            fill("", "A a=\"\\\"\", "),  // many challenges of one escaped parameter
            fill("Bearer ", "a="),  // values that never come
            fill("Custom ", "abc+/9"),  // one token68 as long as allowed
            fill("", ", "),
        ]
    }()

    @Test(arguments: worstCases)
    func worstCaseValuesOfTheLargestLengthStayWithinTheirBounds(value: String) {
        #expect(value.utf8.count <= AuthenticationChallenge.maximumLength)
        #expect(value.utf8.count > AuthenticationChallenge.maximumLength - 64)
        let challenges = AuthenticationChallenge.parse(value)
        #expect(challenges.count <= AuthenticationChallenge.maximumChallenges)
        #expect(challenges.allSatisfy { $0.parameters.count <= AuthenticationChallenge.maximumParameters })
        // The output never outgrows the input: nothing is copied twice.
        let output = challenges.reduce(0) { total, challenge in
            total + challenge.scheme.utf8.count + (challenge.token68?.utf8.count ?? 0)
                + challenge.parameters.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        }
        #expect(output <= value.utf8.count)
    }

    @Test func randomValuesNeverBreakTheBounds() {
        // A fixed-seed generator over the grammar's own characters: quotes, escapes, commas,
        // equals signs, spaces, token characters, a control character and non-ASCII text.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let alphabet = Array(#"Bearer error="\, =xyz_-+/~é"#) + ["\t", "\u{0}", "\u{7F}"]
        for _ in 0..<2000 {
            let length = Int(next() % 200)
            let value = String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
            let challenges = AuthenticationChallenge.parse(value)
            #expect(challenges.count <= AuthenticationChallenge.maximumChallenges)
            #expect(challenges.allSatisfy { $0.parameters.count <= AuthenticationChallenge.maximumParameters && !$0.scheme.isEmpty })
        }
    }

    @Test func stepUpChallengeReadsAcrValuesAndMaxAge() {
        let fields: HTTPFields = [
            .wwwAuthenticate: #"Basic realm="api""#,
            .wwwAuthenticate:
                #"Bearer error="insufficient_user_authentication", error_description="A different authentication level is required", acr_values="urn:mfa phr", max_age=300"#,
        ]
        #expect(StepUpChallenge(headerFields: fields) == StepUpChallenge(acrValues: ["urn:mfa", "phr"], maxAge: 300))
        #expect(StepUpChallenge(headerFields: [.wwwAuthenticate: #"Bearer error="insufficient_user_authentication""#]) == StepUpChallenge())
        #expect(
            StepUpChallenge(headerFields: [.wwwAuthenticate: #"Bearer error="insufficient_user_authentication", max_age="-5""#])
                == StepUpChallenge())
        #expect(StepUpChallenge(headerFields: [.wwwAuthenticate: #"Bearer error="invalid_token""#]) == nil)
        #expect(StepUpChallenge(headerFields: [.wwwAuthenticate: #"Basic error="insufficient_user_authentication""#]) == nil)
        #expect(StepUpChallenge(headerFields: [.wwwAuthenticate: #"Bearer realm="error=insufficient_user_authentication""#]) == nil)
    }
}

/// The `WWW-Authenticate` reader, on the challenges DPoP servers send (RFC 9449 §7.1).
@Suite struct AuthenticationChallengeDPoPTests {
    @Test func severalChallengesInOneField() {
        let challenges = AuthenticationChallenge.parse(
            #"Basic realm="a, b", Newauth abc==, DPoP algs="ES256 PS256", error="use_dpop_nonce", Bearer"#)
        #expect(
            challenges == [
                AuthenticationChallenge(scheme: "basic", parameters: ["realm": "a, b"]),
                AuthenticationChallenge(scheme: "newauth", token68: "abc=="),
                AuthenticationChallenge(scheme: "dpop", parameters: ["algs": "ES256 PS256", "error": "use_dpop_nonce"]),
                AuthenticationChallenge(scheme: "bearer"),
            ])
    }

    @Test func quotedStringsAreUnescaped() {
        let challenges = AuthenticationChallenge.parse(#"DPoP error_description="say \"hi\", \\ and \a", realm="""#)
        #expect(
            challenges == [AuthenticationChallenge(scheme: "dpop", parameters: ["error_description": #"say "hi", \ and a"#, "realm": ""])])
    }

    @Test func schemesAndParameterNamesAreCaseInsensitive() {
        #expect(AuthenticationChallenge.parse(#"dPoP ErRoR="X""#) == [AuthenticationChallenge(scheme: "dpop", parameters: ["error": "X"])])
    }

    @Test func emptyElementsAreSkipped() {
        #expect(AuthenticationChallenge.parse(#" , DPoP error="x" ,, , Bearer ,"#).map(\.scheme) == ["dpop", "bearer"])
        #expect(AuthenticationChallenge.parse("").isEmpty)
        #expect(AuthenticationChallenge.parse(" , ").isEmpty)
    }

    @Test func aBrokenChallengeIsDroppedWithWhatFollows() {
        #expect(AuthenticationChallenge.parse(#"Bearer realm="a", DPoP error="unterminated"#).map(\.scheme) == ["bearer"])
        #expect(AuthenticationChallenge.parse(#"Bearer realm="a", DPoP error=@, Basic"#).map(\.scheme) == ["bearer"])
    }

    @Test func aRepeatedParameterDropsItsChallengeOnly() {
        #expect(AuthenticationChallenge.parse(#"DPoP error="a", ERROR="b", Bearer"#).map(\.scheme) == ["bearer"])
    }

    @Test func theReadIsBounded() {
        let many = Array(repeating: "DPoP", count: 40).joined(separator: ", ")
        #expect(AuthenticationChallenge.parse(many).count == AuthenticationChallenge.maximumChallenges)
        let parameters = (0...AuthenticationChallenge.maximumParameters).map { "p\($0)=v" }.joined(separator: ", ")
        #expect(AuthenticationChallenge.parse("DPoP \(parameters)").isEmpty)
        #expect(
            AuthenticationChallenge.parse("DPoP realm=\"\(String(repeating: "x", count: AuthenticationChallenge.maximumLength))\"").isEmpty)
    }
}
