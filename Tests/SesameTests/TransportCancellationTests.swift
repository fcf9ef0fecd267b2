import Foundation
import HTTPTypes
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame

/// Requests of `StreamingURLSessionTransport` whose caller is cancelled around their start,
/// against a loopback server that answers two bytes at once, so that the cancel and the
/// response's end race. A cancel that lands while a transfer completes makes FoundationNetworking
/// 6.3.1 stop the process ("Trying to access a behaviour for a task that in not in the
/// registry"): a crash here ends the whole test run, which is the failure. Found by review:
/// with the cancel sent from a queue of its own and no `RequestStart`, a caller cancelled before
/// the call crashed the process in 4 runs of 4 (after 1 to 630 rounds).
@Suite struct TransportCancellationTests {
    /// Rounds per test (`SESAME_CANCEL_ROUNDS`, 1,000 by default: about 5 s).
    static let rounds = ProcessInfo.processInfo.environment["SESAME_CANCEL_ROUNDS"].flatMap { Int($0) } ?? 1_000

    static func twoBytes() throws -> LoopbackServer {
        try LoopbackServer { _, connection in
            connection.writeHead([("Content-Type", "text/plain"), ("Content-Length", "2")])
            connection.write("ok")
        }
    }

    static let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")

    /// Whether a request ended, set from the task that sends it.
    final class Ended: @unchecked Sendable {
        private let lock = NSLock()
        private var ended = false
        private var cancelled = false
        var isSet: Bool { lock.withLock { ended } }
        var threwCancellation: Bool { lock.withLock { cancelled } }
        func set(cancelled: Bool) {
            lock.withLock {
                ended = true
                self.cancelled = cancelled
            }
        }
    }

    /// Sends once from a task that `cancel` cancels before or after the call starts; returns
    /// whether the call ended within 5 s, and whether it threw `CancellationError`.
    static func send(
        through transport: StreamingURLSessionTransport, to server: LoopbackServer, cancelledFirst: Bool
    ) async -> (ended: Bool, cancelled: Bool) {
        let ended = Ended()
        let task = Task {
            if cancelledFirst { withUnsafeCurrentTask { $0?.cancel() } }
            do {
                _ = try await transport.send(request, body: nil, baseURL: server.baseURL, operationID: "x")
                ended.set(cancelled: false)
            } catch {
                ended.set(cancelled: error is CancellationError)
            }
        }
        if !cancelledFirst { task.cancel() }
        let finished = await poll(timeout: .seconds(5)) { ended.isSet }
        return (finished, ended.threwCancellation)
    }

    @Test func aCallerCancelledBeforeTheCallSendsNothing() async throws {
        let server = try Self.twoBytes()
        defer { server.stop() }
        let transport = StreamingURLSessionTransport()
        var hung = 0
        var notCancelled = 0
        for _ in 0..<Self.rounds {
            let (ended, cancelled) = await Self.send(through: transport, to: server, cancelledFirst: true)
            if !ended { hung += 1 }
            if !cancelled { notCancelled += 1 }
        }
        #expect(hung == 0, "\(hung) of \(Self.rounds) calls never ended")
        #expect(notCancelled == 0, "\(notCancelled) of \(Self.rounds) calls did not throw CancellationError")
        #expect(server.requests.count == 0, "requests reached the server")
    }

    @Test func aCallerCancelledAsItsResponseEndsNeitherHangsNorCrashes() async throws {
        let server = try Self.twoBytes()
        defer { server.stop() }
        let transport = StreamingURLSessionTransport()
        var hung = 0
        for _ in 0..<Self.rounds {
            let (ended, _) = await Self.send(through: transport, to: server, cancelledFirst: false)
            if !ended { hung += 1 }
        }
        #expect(hung == 0, "\(hung) of \(Self.rounds) calls never ended")
    }
}
