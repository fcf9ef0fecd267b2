import Foundation
import HTTPTypes
import ReferenceServer
import SesameTestSupport
import Testing

/// `authorizationServer: .separate(port:)`: the authorization server on a listener (an
/// origin) of its own, sharing the state; and the request log that tells which origin got
/// which credential.
@Suite struct TwoOriginsTests {
    static func separate(_ configuration: inout ReferenceServer.Configuration) {
        configuration.authorizationServer = .separate(port: 0)
    }

    @Test func sameOriginServesEverythingOnOnePort() async throws {
        try await Harness.run { h in
            #expect(h.endpoint.authorizationPort == h.endpoint.port)
            #expect(h.endpoint.authorizationBaseURL == h.endpoint.baseURL)
            let tokens = try await h.password()
            #expect(try await h.uid(tokens.access) == "pw-alice")
            #expect(await h.state.requestLog().allSatisfy { $0.listener == .api })
        }
    }

    @Test func separateListenerHasItsOwnOriginAndSharesTheState() async throws {
        try await Harness.run(configure: Self.separate) { h in
            #expect(h.endpoint.authorizationPort != h.endpoint.port)
            #expect(h.endpoint.authorizationBaseURL.absoluteString == "http://127.0.0.1:\(h.endpoint.authorizationPort)")
            #expect(h.endpoint.baseURL.absoluteString == "http://127.0.0.1:\(h.endpoint.port)")
            // Tokens from the authorization listener work on the API's.
            let tokens = try await h.password()
            #expect(try await h.uid(tokens.access) == "pw-alice")
            let refreshed = try await h.refresh(tokens.refresh)
            #expect(refreshed.status == .ok)
        }
    }

    @Test func eachListenerAnswers404ForTheOthersRoutes() async throws {
        try await Harness.run(configure: Self.separate) { h in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            for path in ["/oauth/token", "/oauth/revoke", "/oauth/authorize"] {
                let onAPI = try await h.send(.post, path, headers: form, body: "grant_type=password")
                #expect(onAPI.status == .notFound, "\(path) on the API")
                #expect(try onAPI.errorCode() == "not_found")
            }
            #expect(try await h.send(.get, "/oauth/authorize?\(Harness.authorizationQuery())").status == .notFound)
            for path in ["/status", "/me", "/auth/guest", "/_control/counters"] {
                let method: HTTPRequest.Method = path == "/auth/guest" ? .post : .get
                #expect(try await h.send(method, path, on: .authorization).status == .notFound, "\(path) on the authorization server")
            }
            #expect(try await h.authorizationPage().status == .ok)
        }
    }

    @Test func requestLogRecordsListenerAndCredentialPresenceOnly() async throws {
        try await Harness.run(configure: Self.separate) { h in
            let tokens = try await h.password()
            _ = try await h.uid(tokens.access)
            _ = try await h.tokenRequest(
                "grant_type=refresh_token&refresh_token=\(tokens.refresh)&client_id=sesame-demo&client_secret=demo-secret",
                basic: nil)
            _ = try await h.send(.get, "/status")
            #expect(
                await h.state.requestLog() == [
                    RequestLogEntry(
                        listener: .authorization, method: "POST", path: "/oauth/token", bearer: false, clientAuthentication: true),
                    RequestLogEntry(listener: .api, method: "GET", path: "/me", bearer: true, clientAuthentication: false),
                    RequestLogEntry(
                        listener: .authorization, method: "POST", path: "/oauth/token", bearer: false, clientAuthentication: true),
                    RequestLogEntry(listener: .api, method: "GET", path: "/status", bearer: false, clientAuthentication: false),
                ])
            // Over HTTP too, and without a secret in it.
            let log = try await h.send(.get, "/_control/requests")
            #expect(log.status == .ok)
            let entries = try JSONDecoder().decode([RequestLogEntry].self, from: Data(log.body.utf8))
            #expect(entries == (await h.state.requestLog()))
            let secrets = await h.state.issuedSecrets()
            #expect(!secrets.isEmpty)
            #expect(secrets.filter { log.body.contains($0.value) }.isEmpty)
        }
    }

    @Test func publicClientIDInTheBodyIsNotClientAuthentication() async throws {
        try await Harness.run(configure: { $0.clients = [.init(id: "mobile", secret: nil)] }) { h in
            _ = try await h.tokenRequest("grant_type=password&username=alice&password=wonderland&client_id=mobile", basic: nil)
            #expect(await h.state.requestLog().map(\.clientAuthentication) == [false])
        }
    }

    @Test func requestLogClearsOnDeleteAndReset() async throws {
        try await Harness.run { h in
            _ = try await h.guest()
            #expect(await h.state.requestLog().count == 1)
            #expect(try await h.send(.delete, "/_control/requests").status == .noContent)
            #expect(await h.state.requestLog().isEmpty)
            _ = try await h.guest()
            #expect(await h.state.requestLog().count == 1)
            await h.state.reset()
            #expect(await h.state.requestLog().isEmpty)
            // Control requests are not logged.
            _ = try await h.send(.get, "/_control/counters")
            #expect(await h.state.requestLog().isEmpty)
        }
    }

    @Test func injectedFailuresAreLoggedOnTheirListener() async throws {
        try await Harness.run(configure: Self.separate) { h in
            await h.state.injectFailure(InjectedFailure(path: "/oauth/token"))
            let failed = try await h.tokenRequest("grant_type=password&username=alice&password=wonderland")
            #expect(failed.status == .serviceUnavailable)
            #expect(await h.state.requestLog().map(\.listener) == [.authorization])
            #expect(await h.state.counters().requests("POST /oauth/token") == 1)
        }
    }

    @Test func startFailsWhenTheAuthorizationPortIsTaken() async throws {
        try await Harness.run { h in
            var configuration = ServerLifecycleTests.quietConfiguration()
            configuration.authorizationServer = .separate(port: h.endpoint.port)
            let second = ReferenceServer(configuration: configuration)
            await #expect(throws: ReferenceServer.StartError.self) { try await second.start() }
            #expect(await second.endpoint == nil)
        }
    }

    @Test func stopClosesBothListeners() async throws {
        var configuration = ServerLifecycleTests.quietConfiguration()
        configuration.authorizationServer = .separate(port: 0)
        let server = ReferenceServer(configuration: configuration)
        let endpoint = try await server.start()
        let h = Harness(server: server, endpoint: endpoint, clock: ManualClock(Harness.start))
        #expect(try await h.send(.get, "/status").status == .ok)
        #expect(try await h.authorizationPage().status == .ok)
        await server.stop()
        await #expect(throws: (any Error).self) { try await h.send(.get, "/status", timeout: .seconds(2)) }
        await #expect(throws: (any Error).self) { try await h.send(.get, "/oauth/authorize", on: .authorization, timeout: .seconds(2)) }
    }
}
