import Foundation
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

@Suite struct RedactionTests {
    @Test func credentialsNeverShowTheirTokens() {
        let credential = Credential(accessToken: "AT-SECRET", refreshToken: "RT-SECRET", expiresAt: nil, idToken: "ID-SECRET")
        let session = StoredSession(credential: credential, details: TestDetails(uid: "u1", provider: "guest"), signedInAt: Date())
        var dumped = ""
        dump(session, to: &dumped)
        let client = ClientCredentials(clientID: "app", clientSecret: "CLIENT-SECRET")
        var dumpedClient = ""
        dump(client, to: &dumpedClient)
        for text in ["\(credential)", String(reflecting: credential), "\(session)", dumped, "\(client)", dumpedClient] {
            #expect(!text.contains("SECRET"), "\(text.count) characters leaked a secret")
        }
    }

    @Test func logsNeverShowTokensOrSecrets() async throws {
        let env = TestEnvironment()
        _ = try await env.service.authenticate(with: TestSingleStepMethod.password(username: "ada", password: "secret"))
        await env.backEnd.revokeAccessTokens()
        _ = try await env.service.perform(OperationRequest(TestRequests.notes))
        await env.service.unauthenticate()
        let text = env.logs.text
        #expect(!text.isEmpty)
        for secret in ["at-1", "at-2", "rt-1", "rt-2", "s3cr3t", "secret", "Bearer", "Basic"] {
            #expect(!text.contains(secret), "the logs contain a secret")
        }
    }

    @Test func methodAndOngoingDescriptionsHoldNoSecret() async throws {
        #expect(!"\(TestSingleStepMethod.password(username: "ada", password: "hunter2"))".contains("hunter2"))
        let env = TestEnvironment()
        try await env.service.initializeAuthentication(with: TestMultiStepMethod.internal(identifier: "ada@example.com"))
        let ongoing = try #require(await env.service.ongoingAuthentication)
        #expect(ongoing.description == "internal → continue (needs: code)")
    }
}
