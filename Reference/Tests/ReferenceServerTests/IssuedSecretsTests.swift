import Foundation
import HTTPTypes
import ReferenceServer
import SesameTestSupport
import Testing

/// The secrets the server issued or accepted, which the end-to-end secret scan looks for.
/// Expectations compare `IssuedSecret` values, whose descriptions show the kind and length
/// only, so a failure prints no secret.
@Suite struct IssuedSecretsTests {
    @Test func tokenResponsesRecordTheirAccessAndRefreshTokens() async throws {
        try await Harness.run { h in
            let guest = try await h.guest()
            let refreshed = try Harness.tokens(from: try await h.refresh(guest.refresh))
            // The rotated refresh token stays: a client may still hold, and leak, it.
            #expect(
                await h.state.issuedSecrets() == [
                    IssuedSecret(kind: .accessToken, value: guest.access),
                    IssuedSecret(kind: .refreshToken, value: guest.refresh),
                    IssuedSecret(kind: .clientSecret, value: "demo-secret"),
                    IssuedSecret(kind: .accessToken, value: refreshed.access),
                    IssuedSecret(kind: .refreshToken, value: refreshed.refresh),
                ])
        }
    }

    @Test func acceptedPasswordsAndClientSecretsAreRecordedAndRejectedOnesNever() async throws {
        try await Harness.run { h in
            let wrong = try await h.tokenRequest("grant_type=password&username=alice&password=nope")
            #expect(wrong.status == .badRequest)
            let badClient = try await h.tokenRequest(
                "grant_type=password&username=alice&password=wonderland",
                basic: ("sesame-demo", "not-the-secret"))
            #expect(badClient.status == .unauthorized)
            #expect(await h.state.issuedSecrets() == [IssuedSecret(kind: .clientSecret, value: "demo-secret")])

            let first = try await h.password()
            let second = try await h.password()
            #expect(
                await h.state.issuedSecrets() == [
                    IssuedSecret(kind: .clientSecret, value: "demo-secret"),
                    IssuedSecret(kind: .password, value: "wonderland"),
                    IssuedSecret(kind: .accessToken, value: first.access),
                    IssuedSecret(kind: .refreshToken, value: first.refresh),
                    IssuedSecret(kind: .accessToken, value: second.access),
                    IssuedSecret(kind: .refreshToken, value: second.refresh),
                ])
        }
    }

    @Test func challengeCodesAndAcceptedCustomTokensAreRecorded() async throws {
        try await Harness.run { h in
            let challenge = try await h.sendJSON(.post, "/auth/internal/challenge", #"{"identifier":"ada@example.com"}"#)
            #expect(challenge.status == .ok)
            let code = try #require(await h.state.latestChallenge(identifier: "ada@example.com")?.code)
            let rejected = try await h.sendJSON(.post, "/auth/custom", #"{"token":"not-custom","provider":"acme"}"#)
            #expect(rejected.status == .badRequest)
            let accepted = try await h.sendJSON(.post, "/auth/custom", #"{"token":"custom-ada","provider":"acme"}"#)
            let tokens = try Harness.tokens(from: accepted)
            #expect(
                await h.state.issuedSecrets() == [
                    IssuedSecret(kind: .oneTimeCode, value: code),
                    IssuedSecret(kind: .customToken, value: "custom-ada"),
                    IssuedSecret(kind: .accessToken, value: tokens.access),
                    IssuedSecret(kind: .refreshToken, value: tokens.refresh),
                ])
        }
    }

    @Test func revokedTokensStayAndAResetForgetsEverything() async throws {
        try await Harness.run { h in
            let guest = try await h.guest()
            let logout = try await h.sendAuthorized(.post, "/auth/logout", token: guest.access)
            #expect(logout.status == .noContent)
            #expect(await h.state.issuedSecrets().count == 2)
            _ = try await h.password()
            await h.state.reset()
            #expect(await h.state.issuedSecrets().isEmpty)
        }
    }

    @Test func aSecretDescribesItselfWithoutItsValue() {
        let secret = IssuedSecret(kind: .accessToken, value: "s3cr3t-value")
        var dumped = ""
        dump(secret, to: &dumped)
        let texts = [String(describing: secret), String(reflecting: secret), dumped]
        let leaks = texts.filter { $0.contains("s3cr3t") }.count
        #expect(leaks == 0)
        #expect(String(describing: secret) == "accessToken (12 characters)")
    }

    @Test func codesAndVerifiersAreRecordedAndNeverLoggedEvenAtTrace() async throws {
        let recorder = LogCapture()
        try await Harness.run(configure: {
            $0.logger = recorder.logger()
            $0.authorizationServer = .separate(port: 0)
        }) { h in
            let code = try await h.authorizationCode()
            let tokens = try Harness.tokens(from: try await h.exchange(code: code))
            #expect(try await h.revoke(tokens.refresh).status == .ok)
            #expect(try await h.exchange(code: code).status == .badRequest)
            let secrets = await h.state.issuedSecrets()
            #expect(secrets.contains(IssuedSecret(kind: .authorizationCode, value: code)))
            #expect(secrets.contains(IssuedSecret(kind: .codeVerifier, value: Harness.appendixBVerifier)))
            #expect(secrets.contains(IssuedSecret(kind: .password, value: "wonderland")))
            #expect(!recorder.lines.isEmpty)  // the recorder does see the server's logs
            let log = recorder.text
            #expect(secrets.filter { log.contains($0.value) }.isEmpty)
        }
    }
}
