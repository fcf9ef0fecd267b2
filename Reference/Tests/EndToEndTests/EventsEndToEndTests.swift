import Foundation
import ReferenceSDK
import Testing

/// Server-sent events over real HTTP: typed delivery, unknown names kept, and the
/// invalidating `session.revoked`.
@Suite("Server events, end to end", .secretScan)
struct EventsEndToEndTests {
    @Test("a pushed notice arrives typed, and an unknown event name arrives as .unknown with its payload")
    func typedAndUnknownEvents() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService(receivesServerEvents: true)
            let recorder = await EventRecorder.attach(to: service)
            let details = try await e2e.signInAsGuest(service)
            #expect(await e2e.waitForEventStream(ofUser: details.uid))

            try await e2e.backEnd.pushEvent(toUser: details.uid, name: "notice", json: #"{"kind":"text","text":"Welcome aboard"}"#)
            try await e2e.backEnd.pushEvent(toUser: details.uid, name: "promo.flash", json: #"{"percent":30}"#)

            #expect(await recorder.wait { $0.serverEvents.count == 2 })
            let events = recorder.serverEvents
            #expect(events.first == .notice(.text(TextNotice(text: "Welcome aboard"))))
            guard case .unknown(let wireName, let data)? = events.last else {
                Issue.record("expected an unknown event, got \(events)")
                return
            }
            #expect(wireName == "promo.flash")
            #expect(String(decoding: data, as: UTF8.self) == #"{"percent":30}"#)
            #expect(await service.state == .authenticated(details))
        }
    }

    @Test("a pushed event arrives while the stream stays open (live delivery, no reconnection)")
    func liveDelivery() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService(receivesServerEvents: true)
            let recorder = await EventRecorder.attach(to: service)
            let details = try await e2e.signInAsGuest(service)
            #expect(await e2e.waitForEventStream(ofUser: details.uid))

            try await e2e.backEnd.pushEvent(toUser: details.uid, name: "notice", json: #"{"kind":"text","text":"live"}"#)

            // Live, on every platform: on Linux the event stream uses StreamingURLSessionTransport.
            // The stream stays open for the whole test, so an event held back until it closes
            // would never arrive; the generous timeout only absorbs a loaded CI machine (a 1 s
            // limit failed once there while other suites kept both cores busy).
            let arrived = await recorder.wait(timeout: .seconds(10)) { $0.serverEvents.count == 1 }
            #expect(arrived)
            #expect(await e2e.backEnd.openEventStreams(ofUser: details.uid) == 1)
        }
    }

    @Test("profile.updated arrives with its typed details; a known name with a bad payload arrives as .unknown")
    func profileUpdatedAndUndecodablePayload() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService(receivesServerEvents: true)
            let recorder = await EventRecorder.attach(to: service)
            let details = try await e2e.signInAsGuest(service)
            #expect(await e2e.waitForEventStream(ofUser: details.uid))

            let profile =
                #"{"uid":"\#(details.uid)","provider":"guest","providerUID":"\#(details.providerUID)","displayName":"Ada","isAnonymous":true}"#
            try await e2e.backEnd.pushEvent(toUser: details.uid, name: "profile.updated", json: profile)
            try await e2e.backEnd.pushEvent(toUser: details.uid, name: "notice", json: #"{"text":"no kind"}"#)

            #expect(await recorder.wait { $0.serverEvents.count == 2 })
            guard case .profileUpdated(let updated)? = recorder.serverEvents.first else {
                Issue.record("expected profile.updated, got \(recorder.serverEvents)")
                return
            }
            #expect(updated.displayName == "Ada")
            #expect(updated.uid == details.uid)
            #expect(recorder.serverEvents.last?.wireName == "notice")
            guard case .unknown? = recorder.serverEvents.last else {
                Issue.record("a notice without its discriminator should arrive as unknown")
                return
            }
        }
    }

    @Test("session.revoked (effect invalidate) arrives typed, then the state becomes invalid and the session is forgotten")
    func sessionRevokedInvalidates() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, receivesServerEvents: true)
            let recorder = await EventRecorder.attach(to: service)
            let details = try await e2e.signInAsGuest(service)
            #expect(await e2e.waitForEventStream(ofUser: details.uid))

            // The server pushes session.revoked, then closes the user's streams.
            try await e2e.backEnd.revokeTokens(ofUser: details.uid, reason: "passwordChanged")

            #expect(await recorder.wait { $0.states.last == .invalid })
            #expect(recorder.serverEvents == [.sessionRevoked(SessionRevoked(reason: .passwordChanged))])
            // Delivered first, then the state changed.
            let revokedIndex = recorder.events.firstIndex { if case .server = $0 { true } else { false } }
            let invalidIndex = recorder.events.firstIndex(of: .stateChanged(.invalid))
            #expect(revokedIndex != nil && invalidIndex != nil && revokedIndex! < invalidIndex!)
            #expect(await service.state == .invalid)
            #expect(try store.load() == nil)
            await #expect(throws: SesameError.notAuthenticated) { try await service.me() }
        }
    }

    @Test("a session.revoked pushed without revoking the tokens still invalidates the session")
    func pushedSessionRevokedInvalidates() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService(receivesServerEvents: true)
            let recorder = await EventRecorder.attach(to: service)
            let details = try await e2e.signInAsGuest(service)
            #expect(await e2e.waitForEventStream(ofUser: details.uid))

            try await e2e.backEnd.pushEvent(toUser: details.uid, name: "session.revoked", json: #"{"reason":"adminAction"}"#)

            #expect(await recorder.wait { $0.states.last == .invalid })
            #expect(recorder.serverEvents == [.sessionRevoked(SessionRevoked(reason: .adminAction))])
        }
    }

    @Test("the AsyncStream of events starts with the current state and ends on unsubscribeFromAll()")
    func eventStreamLifecycle() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let stream = await service.events()
            let collector = Task {
                var received: [Event] = []
                for await event in stream { received.append(event) }
                return received
            }
            let details = try await e2e.signInAsGuest(service)
            await service.unsubscribeFromAll()

            let received = await collector.value
            #expect(received == [.stateChanged(.unauthenticated), .stateChanged(.authenticated(details))])
        }
    }

    @Test("a cancelled subscription receives nothing more")
    func cancelledSubscription() async throws {
        try await withEndToEnd { e2e in
            let service = e2e.makeService()
            let recorder = await EventRecorder.attach(to: service)
            #expect(await recorder.wait { $0.states == [.unauthenticated] })

            recorder.cancel()
            try await e2e.signInAsGuest(service)
            let witness = await EventRecorder.attach(to: service)

            #expect(await witness.wait { !$0.states.isEmpty })
            #expect(recorder.states == [.unauthenticated])
        }
    }
}
