import Foundation
import SesameTestSupport
import Testing

/// `make demo` walks the generated SDK through a whole session, checking each step; this
/// runs the built `sesame-demo` so that a step that stops doing what it says fails the suite.
@Suite struct DemoTests {
    @Test func everyStepOfTheDemoDoesWhatItSays() async throws {
        let executable = try #require(builtProduct(named: "sesame-demo"), "build the sesame-demo product first (swift build)")
        let run = try await runToEnd(executable)
        let (status, output) = (run.status, run.output)
        #expect(status == 0, "sesame-demo failed:\n\(output.suffix(2000))")
        #expect(output.contains("Every step did what it should"))
        #expect(output.contains("migrated it to v3 on sign-in"))
        #expect(output.contains("idTokenClaims(): sub pw-alice, aud sesame-demo-app"))
        #expect(output.contains("signed out: the provider confirmed the end of its session at sdk.yaml's openID.endSession"))
        // Step 15: a key rotation costs exactly one JWKS fetch, and the new key is accepted.
        #expect(output.contains("the SDK fetched /.well-known/jwks.json again once"))
        // Step 16: the step-up's challenge, then the acr the new ID token carries, then the retry.
        #expect(output.contains("SesameError.stepUpRequired: acr_values urn:sesame:loa:mfa, max_age 300"))
        #expect(output.contains("the new ID token's acr is urn:sesame:loa:mfa"))
        #expect(output.contains("the retried GET /account/security answered 200"))
        // Step 17: DPoP-bound tokens; the copied access token is refused without the key.
        #expect(output.contains("the access token copied out of the store is refused: as Bearer (401), and with another key's proof (401)"))
    }
}
