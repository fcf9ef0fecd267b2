import Foundation
import HTTPTypes
@testable import ReferenceServer
import Testing

/// `GET /events`: server-sent events with ids, replay and heartbeats.
///
/// The test client reads whole responses, so each test ends the stream from the server
/// side (``ReferenceServerState/disconnectEventStreams(ofUser:)`` or a revocation) and then
/// checks everything the stream carried.
@Suite struct EventStreamTests {
    /// Opens `/events`, runs `whileOpen` once the server counts the stream, then closes it
    /// from the server and returns what was received.
    ///
    /// The request runs in a task of its own, awaited only once the server has ended the
    /// stream: the test client has no timeout for a body that never ends, so a test that
    /// failed before the stream closed would otherwise wait for it forever (an `async let` is
    /// awaited when its scope exits, error or not). On a failure the task is cancelled and
    /// `Harness.run` stops the server, which ends the stream.
    func stream(
        _ h: Harness,
        token: String,
        uid: String,
        lastEventID: String? = nil,
        whileOpen: @Sendable () async throws -> Void
    ) async throws -> HTTPResult {
        var headers: HTTPFields = [.authorization: "Bearer \(token)", .accept: "text/event-stream"]
        if let lastEventID { headers[HTTPField.Name("Last-Event-ID")!] = lastEventID }
        let response = Task { try await h.send(.get, "/events", headers: headers) }
        do {
            try await h.waitUntil("stream open") { await h.state.openEventStreams(ofUser: uid) == 1 }
            try await whileOpen()
        } catch {
            response.cancel()
            throw error
        }
        await h.state.disconnectEventStreams(ofUser: uid)
        return try await response.value
    }

    @Test func eventsCarryIdNameAndOneLineJSON() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let uid = try await h.uid(tokens.access)
            let result = try await stream(h, token: tokens.access, uid: uid) {
                try await h.state.pushEvent(
                    toUser: uid, name: "notice", payload: .object(["kind": .string("text"), "text": .string("Hello")]))
                try await h.state.pushEvent(
                    toUser: uid, name: "profile.updated",
                    payload: .object(["uid": .string(uid), "provider": .string("guest"), "providerUID": .string(uid)]))
            }
            #expect(result.status == .ok)
            #expect(result.headers[.contentType] == "text/event-stream")
            #expect(result.headers[.cacheControl] == "no-cache")
            #expect(result.body.contains("id: 1\nevent: notice\ndata: {\"kind\":\"text\",\"text\":\"Hello\"}\n\n"))
            #expect(
                result.body.contains(
                    "id: 2\nevent: profile.updated\ndata: {\"provider\":\"guest\",\"providerUID\":\"\(uid)\",\"uid\":\"\(uid)\"}\n\n"))
        }
    }

    @Test func lastEventIDReplaysLaterBufferedEvents() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let uid = try await h.uid(tokens.access)
            for index in 1...3 {
                try await h.state.pushEvent(toUser: uid, name: "notice", data: #"{"kind":"text","text":"n\#(index)"}"#)
            }
            let result = try await stream(h, token: tokens.access, uid: uid, lastEventID: "1") {
                try await h.state.pushEvent(toUser: uid, name: "notice", data: #"{"kind":"text","text":"n4"}"#)
            }
            #expect(!result.body.contains("id: 1\n"))
            let ids = result.body.split(separator: "\n").filter { $0.hasPrefix("id: ") }
            #expect(ids == ["id: 2", "id: 3", "id: 4"])
        }
    }

    @Test func withoutLastEventIDOnlyNewEventsArrive() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let uid = try await h.uid(tokens.access)
            try await h.state.pushEvent(toUser: uid, name: "notice", data: "{}")
            let result = try await stream(h, token: tokens.access, uid: uid) {
                try await h.state.pushEvent(toUser: uid, name: "x.unknown", data: "{}")
            }
            #expect(result.body.split(separator: "\n").filter { $0.hasPrefix("id: ") } == ["id: 2"])
            #expect(result.body.contains("event: x.unknown\n"))
        }
    }

    @Test func replayBufferKeepsTheNewestEvents() async throws {
        try await Harness.run(configure: { $0.eventBufferSize = 2 }) { h in
            for index in 1...5 {
                try await h.state.pushEvent(toUser: "u1", name: "notice", data: "{\"n\":\(index)}")
            }
            #expect(await h.state.bufferedEvents(ofUser: "u1").map(\.id) == [4, 5])
        }
    }

    @Test func heartbeatsAreComments() async throws {
        try await Harness.run(configure: { $0.heartbeatInterval = .milliseconds(20) }) { h in
            let tokens = try await h.guest()
            let uid = try await h.uid(tokens.access)
            // Open until the server has written a heartbeat (a fixed 150 ms missed it when the
            // servers of a whole run waited seconds for a thread).
            let result = try await stream(h, token: tokens.access, uid: uid) {
                try await h.waitUntil("a heartbeat written") { await h.state.heartbeatsWritten > 0 }
            }
            #expect(result.body.contains("\n: ping\n\n"))
        }
    }

    @Test func revocationPushesSessionRevokedAndKillsTheTokens() async throws {
        try await Harness.run { h in
            let tokens = try await h.guest()
            let uid = try await h.uid(tokens.access)
            var headers: HTTPFields = [.authorization: "Bearer \(tokens.access)"]
            headers[.accept] = "text/event-stream"
            // A task of its own, not an `async let`: see `stream(_:token:uid:lastEventID:whileOpen:)`.
            let response = Task { try await h.send(.get, "/events", headers: headers) }
            let revoked: HTTPResult
            do {
                try await h.waitUntil("stream open") { await h.state.openEventStreams(ofUser: uid) == 1 }
                revoked = try await h.send(.post, "/_control/users/\(uid)/revoke")
            } catch {
                response.cancel()
                throw error
            }
            #expect(try revoked.object()["revokedSessions"] as? Int == 1)
            // The server ends the stream after the event, so the read completes.
            let result = try await response.value
            #expect(result.body.contains("event: session.revoked\ndata: {\"reason\":\"adminAction\"}\n\n"))
            let me = try await h.sendAuthorized(.get, "/me", token: tokens.access)
            #expect(try me.errorCode() == "invalid_token")
            #expect(try await h.refresh(tokens.refresh).errorCode() == "invalid_grant")
        }
    }

    @Test func revocationReasonCanBeChosen() async throws {
        try await Harness.run { h in
            let tokens = try await h.password()
            try await h.state.revokeTokens(ofUser: "pw-alice", reason: .passwordChanged)
            #expect(await h.state.bufferedEvents(ofUser: "pw-alice").last?.data == #"{"reason":"passwordChanged"}"#)
            #expect(try await h.sendAuthorized(.get, "/me", token: tokens.access).status == .unauthorized)
            await #expect(throws: ControlError.unknownUser("nobody")) { try await h.state.revokeTokens(ofUser: "nobody") }
        }
    }

    @Test func multilineDataIsSplitOverDataLines() {
        let event = ServerSentEvent(id: 7, event: "notice", data: "a\nb")
        #expect(event.wireText == "id: 7\nevent: notice\ndata: a\ndata: b\n\n")
    }
}
