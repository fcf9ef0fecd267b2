import Testing

@testable import SesameDPoP

/// The `WWW-Authenticate` reader itself.
@Suite struct DPoPChallengeTests {
    @Test func severalChallengesInOneField() {
        let challenges = DPoPChallenge.parse(#"Basic realm="a, b", Newauth abc==, DPoP algs="ES256 PS256", error="use_dpop_nonce", Bearer"#)
        #expect(
            challenges == [
                DPoPChallenge(scheme: "basic", parameters: ["realm": "a, b"]),
                DPoPChallenge(scheme: "newauth", token68: "abc=="),
                DPoPChallenge(scheme: "dpop", parameters: ["algs": "ES256 PS256", "error": "use_dpop_nonce"]),
                DPoPChallenge(scheme: "bearer"),
            ])
    }

    @Test func quotedStringsAreUnescaped() {
        let challenges = DPoPChallenge.parse(#"DPoP error_description="say \"hi\", \\ and \a", realm="""#)
        #expect(challenges == [DPoPChallenge(scheme: "dpop", parameters: ["error_description": #"say "hi", \ and a"#, "realm": ""])])
    }

    @Test func schemesAndParameterNamesAreCaseInsensitive() {
        #expect(DPoPChallenge.parse(#"dPoP ErRoR="X""#) == [DPoPChallenge(scheme: "dpop", parameters: ["error": "X"])])
    }

    @Test func emptyElementsAreSkipped() {
        #expect(DPoPChallenge.parse(#" , DPoP error="x" ,, , Bearer ,"#).map(\.scheme) == ["dpop", "bearer"])
        #expect(DPoPChallenge.parse("").isEmpty)
        #expect(DPoPChallenge.parse(" , ").isEmpty)
    }

    @Test func aBrokenChallengeIsDroppedWithWhatFollows() {
        #expect(DPoPChallenge.parse(#"Bearer realm="a", DPoP error="unterminated"#).map(\.scheme) == ["bearer"])
        #expect(DPoPChallenge.parse(#"Bearer realm="a", DPoP error=@, Basic"#).map(\.scheme) == ["bearer"])
    }

    @Test func aRepeatedParameterDropsItsChallengeOnly() {
        #expect(DPoPChallenge.parse(#"DPoP error="a", ERROR="b", Bearer"#).map(\.scheme) == ["bearer"])
    }

    @Test func theReadIsBounded() {
        let many = Array(repeating: "DPoP", count: 40).joined(separator: ", ")
        #expect(DPoPChallenge.parse(many).count == DPoPChallenge.maximumChallenges)
        let parameters = (0...DPoPChallenge.maximumParameters).map { "p\($0)=v" }.joined(separator: ", ")
        #expect(DPoPChallenge.parse("DPoP \(parameters)").isEmpty)
        #expect(DPoPChallenge.parse("DPoP realm=\"\(String(repeating: "x", count: DPoPChallenge.maximumLength))\"").isEmpty)
    }
}
