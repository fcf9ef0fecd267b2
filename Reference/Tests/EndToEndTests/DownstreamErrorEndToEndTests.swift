import Foundation
import ReferenceSDK
import SesameTestSupport
@_spi(Generated) import Sesame
import Testing
@_spi(Generated) import SesameDescription

/// Only the auth server's own rejection (401 with a Bearer `invalid_token` challenge) leads
/// to a refresh: any other 401 is returned untouched, with no refresh and no retry.
@Suite("Downstream errors, end to end", .secretScan)
struct DownstreamErrorEndToEndTests {
    @Test("GET /_control/downstream-401 (Basic challenge, code unauthorized) is returned untouched without a refresh")
    func downstream401() async throws {
        try await withEndToEnd { e2e in
            let traffic = TrafficRecorder()
            let service = e2e.makeService(traffic: traffic)
            let details = try await e2e.signInAsGuest(service)
            let downstream = OperationRequest(RequestDescription(name: "downstream", method: .get, path: "/_control/downstream-401"))

            let result = await withTimeout(.seconds(1)) { await outcome { try await service.perform(downstream) } }

            withKnownIssue(
                "URLSession on Linux cannot hand back a 401 with a Basic challenge (swift-corelibs-foundation#5456): Sesame declines the challenge, so the call fails with a transport error at once instead of hanging"
            ) {
                guard let result else {
                    Issue.record("the downstream 401 never came back through the default transport")
                    return
                }
                guard case .failure(ReferenceSDKError.unknown(let response)) = result else {
                    Issue.record("expected the untouched 401, got \(result)")
                    return
                }
                #expect(response.status == 401)
                #expect(response.code == "unauthorized")
            } when: {
                urlSessionHangsOnBasicChallenge
            }
            // Under load the call may time out (the known issue) before the server has counted
            // the request: wait for it rather than read the counter at once (it flaked so).
            let counted = await poll { await e2e.backEnd.counters().requests("GET /_control/downstream-401") == 1 }
            #expect(counted)
            let counters = await e2e.backEnd.counters()
            #expect(counters.refreshes == 0)
            #expect(counters.requests("POST /oauth/token") == 0)
            // It went with the credential: the 401 is not about a missing one.
            #expect(traffic.requests("GET", "/_control/downstream-401").first?.headerFields[.authorization]?.hasPrefix("Bearer ") == true)
            #expect(await service.state == .authenticated(details))
        }
    }

    @Test("a 401 on /me without the invalid_token challenge is returned untouched: no refresh, no retry, state unchanged")
    func unauthorizedWithoutChallenge() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            let before = await e2e.backEnd.counters()
            await e2e.backEnd.injectFailure(
                method: "GET", path: "/me", status: 401,
                rawBody: #"{"error":"unauthorized","error_description":"a proxy said no"}"#,
                contentType: "application/json")

            let error = await #expect(throws: ReferenceSDKError.self) { try await service.me() }

            guard case .unknown(let response)? = error else {
                Issue.record("expected the untouched 401, got \(String(describing: error))")
                return
            }
            #expect(response.status == 401)
            #expect(response.message == "a proxy said no")
            let after = await e2e.backEnd.counters()
            #expect(after.requests("GET /me") - before.requests("GET /me") == 1)
            #expect(after.refreshes == 0)
            #expect(after.requests("POST /oauth/token") == 0)
            #expect(await service.state == .authenticated(details))
        }
    }

    @Test("a 401 whose body says invalid_token under a Bearer challenge without error=invalid_token is not the auth server's rejection")
    func invalidTokenBodyWithoutChallenge() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            await e2e.backEnd.injectFailure(
                method: "GET", path: "/me", status: 401,
                rawBody: #"{"error":"invalid_token"}"#, contentType: "application/json",
                headers: ["WWW-Authenticate": #"Bearer realm="elsewhere""#])

            await #expect(throws: ReferenceSDKError.self) { try await service.me() }

            #expect(await e2e.backEnd.counters().refreshes == 0)
            #expect(await e2e.backEnd.counters().requests("GET /me") == 2)  // the sign-in's, then this one
            #expect(await service.state == .authenticated(details))
        }
    }
}
