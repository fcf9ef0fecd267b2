import Foundation
import ReferenceSDK
import Testing

/// No token the back-end issued, and no client secret or password, shows in anything the
/// SDK lets an app print: descriptions, debug descriptions and dumps of the states,
/// errors, events and results of a whole session, nor in the runtime's logs.
@Suite("Redaction, end to end")
struct RedactionEndToEndTests {
    @Test("a full session's states, errors, events, results and logs never show a token or a secret")
    func fullSessionShowsNoSecret() async throws {
        try await withEndToEnd { e2e in
            let traffic = TrafficRecorder()
            let logs = LogCapture()
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, receivesServerEvents: true, traffic: traffic, logs: logs)
            let recorder = await EventRecorder.attach(to: service)
            var shown = Shown()

            shown.add(try await service.serverStatus())
            let method = SingleStepMethod.password(username: "alice", password: "wonderland")
            shown.add(method)
            shown.add(SingleStepMethod.custom(token: "custom-secret-token", provider: "acme"))

            // Sign in as a guest, use the back-end, fail a password sign-in.
            let guest = try await e2e.signInAsGuest(service)
            shown.add(try await service.me())
            shown.add(try await service.createNote(NewNote(text: "a note")))
            shown.add(await service.state)
            shown.add(try store.load())
            shown.add(try store.load()?.credential)
            shown.add(await caught { try await service.authenticate(with: SingleStepMethod.password(username: "alice", password: "nope")) })

            // Multi-step: a wrong code, then the right one.
            let identifier = "redact@example.com"
            shown.add(try await service.initializeAuthentication(with: MultiStepMethod.internal(identifier: identifier)))
            shown.add(await service.ongoingAuthentication)
            let code = try #require(await e2e.backEnd.latestCode(for: identifier))
            shown.add(AuthenticationInput.internalContinue(code: code))
            shown.add(await caught { try await service.continueAuthentication(with: AuthenticationInput.internalContinue(code: code == "000000" ? "111111" : "000000")) })
            let progress = try await service.continueAuthentication(with: AuthenticationInput.internalContinue(code: code))
            shown.add(progress)
            guard case .authenticated(let details) = progress else { throw Unexpected("internal sign-in failed") }
            #expect(details.uid != guest.uid)

            // Server events.
            #expect(await e2e.waitForEventStream(ofUser: details.uid))
            try await e2e.backEnd.pushEvent(toUser: details.uid, name: "notice", json: #"{"kind":"link","title":"Docs","url":"https://example.com/docs"}"#)
            try await e2e.backEnd.pushEvent(toUser: details.uid, name: "x-unknown", json: #"{"a":1}"#)
            #expect(await recorder.wait { $0.serverEvents.count == 2 })

            // Expiry and refresh, failures of every kind.
            await e2e.advanceTime(by: 3601)
            shown.add(try await service.listNotes())
            shown.add(try store.load())
            await e2e.backEnd.injectFailure(method: "GET", path: "/me", status: 200, rawBody: #"{"uid":"#, contentType: "application/json")
            shown.add(await caught { try await service.me() })
            await e2e.backEnd.injectFailure(method: "GET", path: "/notes", status: 401, rawBody: #"{"error":"unauthorized"}"#, contentType: "application/json")
            shown.add(await caught { try await service.listNotes() })
            await e2e.advanceTime(by: 301)
            shown.add(await caught { try await service.destroyAccount() })
            await e2e.backEnd.advanceClock(by: 3601)
            shown.add(try await service.identities())
            await service.setConnectivity(online: false)
            await service.setConnectivity(online: true)

            // Revocation: session.revoked, invalid, then nothing goes out.
            try await e2e.backEnd.revokeTokens(ofUser: details.uid)
            #expect(await recorder.wait { $0.states.last == .invalid })
            shown.add(await caught { try await service.me() })
            shown.add(await caught { try await service.authenticationDetailsThrows() })

            // Password sign-in, a relaunch that restores it, a sign-out that fails, one that works.
            shown.add(try await service.authenticate(with: method))
            let relaunched = e2e.makeService(store: store, traffic: traffic, logs: logs)
            shown.add(await relaunched.restoreSession())
            await e2e.backEnd.injectFailure(method: "POST", path: "/auth/logout", status: 503, rawBody: "<html>down</html>", contentType: "text/html")
            shown.add(await service.unauthenticate())
            shown.add(await relaunched.unauthenticate())
            shown.add(await relaunched.state)

            for event in recorder.events { shown.add(event) }
            for failure in recorder.refreshFailures { shown.add(failure) }

            let secrets = Set(traffic.issuedTokens) .union(["demo-secret", "wonderland", "custom-secret-token"])
            // Enough tokens were issued for the scan to mean something: guest, internal,
            // two refreshes, password, the relaunch's refresh (two tokens each).
            #expect(traffic.issuedTokens.count >= 12, "\(traffic.requests.map { "\($0.method) \($0.path) \($0.status ?? 0)" })")
            #expect(recorder.events.count >= 8)
            #expect(logs.lines.count >= 20)
            for secret in secrets {
                let inShown = shown.texts.filter { $0.contains(secret) }
                let inLogs = logs.lines.filter { $0.contains(secret) }
                #expect(inShown.isEmpty, "a secret shows in: \(inShown.map { String($0.prefix(200)) })")
                #expect(inLogs.isEmpty, "a secret shows in the logs: \(inLogs.map { String($0.prefix(200)) })")
            }
            // The one-time code is not in the continuation's descriptions either.
            let input = AuthenticationInput.internalContinue(code: code)
            #expect(!String(describing: input).contains(code))
            #expect(!String(reflecting: input).contains(code))
            var dumped = ""
            dump(input, to: &dumped)
            #expect(!dumped.contains(code))
        }
    }
}

/// Every way an app may turn a value into text.
struct Shown {
    private(set) var texts: [String] = []

    mutating func add(_ value: Any?) {
        guard let value else { return }
        texts.append(String(describing: value))
        texts.append(String(reflecting: value))
        var dumped = ""
        dump(value, to: &dumped)
        texts.append(dumped)
    }
}

/// The error `body` throws, or nil.
func caught(_ body: () async throws -> Any) async -> (any Error)? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
