import Foundation
import HTTPTypes
import Logging
import ReferenceServer
import SesameTestSupport
import Testing

/// `start()` and `stop()` of the in-process server.
@Suite struct ServerLifecycleTests {
    static func quietConfiguration(port: Int = 0) -> ReferenceServer.Configuration {
        var logger = Logger(label: "lifecycle-tests")
        logger.logLevel = .critical
        return ReferenceServer.Configuration(port: port, logger: logger)
    }

    @Test func startReportsTheBoundPortAndStopClosesIt() async throws {
        let server = ReferenceServer(configuration: Self.quietConfiguration())
        let endpoint = try await server.start()
        #expect(endpoint.port > 0)
        #expect(endpoint.baseURL.absoluteString == "http://127.0.0.1:\(endpoint.port)")
        #expect(await server.endpoint == endpoint)
        let h = Harness(server: server, endpoint: endpoint, clock: ManualClock(Harness.start))
        #expect(try await h.send(.get, "/status").status == .ok)
        await server.stop()
        #expect(await server.endpoint == nil)
        await #expect(throws: (any Error).self) { try await h.send(.get, "/status", timeout: .seconds(2)) }
    }

    @Test func stopEndsOpenEventStreams() async throws {
        let server = ReferenceServer(configuration: Self.quietConfiguration())
        let endpoint = try await server.start()
        let h = Harness(server: server, endpoint: endpoint, clock: ManualClock(Harness.start))
        let tokens = try await h.guest()
        let uid = try await h.uid(tokens.access)
        // A task, not an `async let`, so that a failed wait stops the server (which ends the
        // stream) instead of waiting forever for a body that never ends.
        let stream = Task { try await h.send(.get, "/events", headers: [.authorization: "Bearer \(tokens.access)"]) }
        do {
            try await h.waitUntil("stream open") { await server.state.openEventStreams(ofUser: uid) == 1 }
        } catch {
            await server.stop()
            throw error
        }
        let started = ContinuousClock.now
        await server.stop()
        #expect(try await stream.value.status == .ok)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func startingTwiceFails() async throws {
        let server = ReferenceServer(configuration: Self.quietConfiguration())
        _ = try await server.start()
        await #expect(throws: ReferenceServer.StartError.self) { try await server.start() }
        await server.stop()
    }

    @Test func startOnATakenPortFails() async throws {
        let first = ReferenceServer(configuration: Self.quietConfiguration())
        let endpoint = try await first.start()
        let second = ReferenceServer(configuration: Self.quietConfiguration(port: endpoint.port))
        await #expect(throws: ReferenceServer.StartError.self) { try await second.start() }
        await first.stop()
    }
}
