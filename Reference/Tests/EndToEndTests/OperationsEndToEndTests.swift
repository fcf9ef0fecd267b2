import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import ReferenceSDK
import Testing

/// The generated operations over real HTTP: authenticated calls carry the session's
/// credential, the unauthenticated one needs none, and a call without a session never
/// leaves the device.
@Suite("Operations, end to end", .secretScan)
struct OperationsEndToEndTests {
    @Test("me() returns the signed-in user's details, read with the session's credential")
    func me() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInInternal(service, identifier: "lin@example.com")

            let me = try await service.me()

            #expect(me.uid == details.uid)
            #expect(me.provider == .internal)
            #expect(me.providerUID == "lin@example.com")
            #expect(me.email == "lin@example.com")
            #expect(me.authenticatedAt == e2e.clock.now)
            #expect(me.expiresAt == e2e.clock.now.addingTimeInterval(3600))
        }
    }

    @Test("createNote and listNotes: notes belong to the signed-in user, in order, filtered by pinned and limit")
    func notes() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            try await e2e.signInAsGuest(service)
            #expect(try await service.listNotes().isEmpty)

            let first = try await service.createNote(NewNote(text: "buy milk"))
            let second = try await service.createNote(NewNote(text: "call Ada", pinned: true))
            let third = try await service.createNote(NewNote(text: "ship Sesame 1.0 — ✓"))

            #expect(first.text == "buy milk")
            #expect(!first.pinned)
            #expect(second.pinned)
            #expect(Set([first.id, second.id, third.id]).count == 3)
            #expect(try await service.listNotes() == [first, second, third])
            #expect(try await service.listNotes(pinned: true) == [second])
            #expect(try await service.listNotes(pinned: false) == [first, third])
            #expect(try await service.listNotes(limit: 2) == [first, second])

            // Another user sees none of them.
            let other = e2e.makeService()
            try await e2e.signInAsGuest(other)
            #expect(try await other.listNotes().isEmpty)
        }
    }

    @Test("a note that breaks its schema is refused before sending; a request the back-end refuses is a typed invalidRequest")
    func invalidRequests() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)

            await #expect(throws: SchemaViolation.self) { try await service.createNote(NewNote(text: "")) }
            #expect(await e2e.backEnd.counters().requests("POST /notes") == 0)

            // A provider this SDK does not know passes the client and is refused by the back-end.
            let error = await #expect(throws: ReferenceSDKError.self) {
                try await service.detachIdentity(provider: .unknown("martian"))
            }
            guard case .invalidRequest(let response)? = error else {
                Issue.record("expected invalid_request, got \(String(describing: error))")
                return
            }
            #expect(response.status == 400)
            #expect(response.category == .client)
            #expect(await e2e.backEnd.counters().requests("DELETE /identities/{provider}") == 1)
            #expect(await service.state == .authenticated(details))
        }
    }

    @Test("identities() lists the identities attached to the account")
    func identities() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await service.authenticate(with: SingleStepMethod.password(username: "bob", password: "builder"))

            let before = try await service.identities()
            try await e2e.backEnd.attachIdentity(toUser: details.uid, provider: "internal", providerUID: "bob@example.com")
            let after = try await service.identities()

            #expect(before.map(\.provider) == [.password])
            #expect(before.map(\.providerUID) == ["bob"])
            #expect(after.map(\.provider) == [.password, .internal])
            #expect(after.last?.providerUID == "bob@example.com")
        }
    }

    @Test("serverStatus() needs no credential and works signed out")
    func serverStatus() async throws {
        try await withEndToEnd { e2e in
            let traffic = TrafficRecorder()
            let service = e2e.makeService(traffic: traffic)

            let status = try await service.serverStatus()

            #expect(status.status == "ok")
            #expect(status.version == "1.0")
            #expect((status.uptimeSeconds ?? 0) > 0)
            let request = try #require(traffic.requests("GET", "/status").first)
            #expect(request.headerFields[.authorization] == nil)
            #expect(await service.state == .unauthenticated)
        }
    }

    @Test("an authenticated operation without a session throws notAuthenticated and sends nothing")
    func operationWithoutSession() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()

            await #expect(throws: SesameError.notAuthenticated) { try await service.me() }
            await #expect(throws: SesameError.notAuthenticated) { try await service.listNotes() }
            await #expect(throws: SesameError.notAuthenticated) { try await service.authenticationDetailsThrows() }

            #expect(await e2e.backEnd.counters().requests("GET /me") == 0)
            #expect(await e2e.backEnd.counters().requests("GET /notes") == 0)
        }
    }

    @Test("a malformed (truncated JSON) response to me() is SesameError.decoding and leaves the state unchanged")
    func malformedResponse() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store)
            let details = try await e2e.signInAsGuest(service)
            let saved = try store.load()
            await e2e.backEnd.injectFailure(
                method: "GET", path: "/me", status: 200,
                rawBody: #"{"uid": "\#(details.uid)", "provider": "gu"#,
                contentType: "application/json")

            let error = await #expect(throws: SesameError.self) { try await service.me() }

            guard case .decoding(let operation, _)? = error else {
                Issue.record("expected a decoding error, got \(String(describing: error))")
                return
            }
            #expect(operation == "me")
            #expect(await service.state == .authenticated(details))
            #expect(try store.load() == saved)
            #expect(await e2e.backEnd.pendingFailureCount() == 0)
            #expect(try await service.me().uid == details.uid)
        }
    }

    @Test("the service's credentialMiddleware authenticates a hand-made request to the back-end's origin")
    func credentialMiddlewareForOtherClients() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let details = try await e2e.signInAsGuest(service)
            let middleware = service.credentialMiddleware
            let transport = URLSessionTransport()
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/me")

            let (response, body) = try await middleware.intercept(
                request, body: nil, baseURL: e2e.backEnd.baseURL, operationID: "me",
                next: { request, body, baseURL in
                    try await transport.send(request, body: body, baseURL: baseURL, operationID: "me")
                })

            #expect(response.status == .ok)
            let data = try await Data(collecting: try #require(body), upTo: 1 << 20)
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(object?["uid"] as? String == details.uid)
        }
    }
}
