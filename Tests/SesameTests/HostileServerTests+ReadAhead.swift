import Foundation
import HTTPTypes
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription
@_spi(Generated) @testable import Sesame

/// FoundationNetworking's read-ahead (issue 29): libcurl reads on the session's work queue and
/// hands each chunk to the delegate queue; when the delegate got little of the CPU (a loaded
/// machine), chunks piled up in that queue, outside every limit. Here the delegate is slowed on
/// purpose (`pacing` sleeps 5 ms before each chunk of a response still read), so that the
/// pile-up no longer depends on the machine's load. With a queue that runs callbacks later,
/// 4,369 MiB left the server over the two event connections (VmHWM 6,231 MiB) and 1,485 MiB
/// for the body nobody read, and hundreds of callbacks waited at once; with
/// `DirectDelegateQueue`, each chunk reaches the delegate before libcurl reads the next, so at
/// most one callback per reading thread is ever under way, and what leaves the server is the
/// limit, the kernel's buffers and what libcurl reads (and the delegate drops) until the cancel
/// lands (docs/runtime.md, "Response limits").
///
/// Linux only: the read-ahead, and the queue that ends it, are FoundationNetworking's.
#if canImport(FoundationNetworking)
extension HostileServerTests {
    /// A delegate that sleeps 5 ms before each chunk it keeps: at most 200 chunks a second. The
    /// sleep runs on FoundationNetworking's work queue (``DirectDelegateQueue``), so what waits
    /// for that queue from Swift's pool (a task's `resume()`, the session's invalidation) waits
    /// up to a few hundred milliseconds meanwhile: only these tests slow the delegate so.
    static func starvedTransport(maximumBufferedBytes: Int = 8 << 20) -> StreamingURLSessionTransport {
        StreamingURLSessionTransport(
            configuration: .default, maximumBufferedBytes: maximumBufferedBytes, pacing: { Thread.sleep(forTimeInterval: 0.005) })
    }

    /// The delegate queue's counts, and what the delegate saw, for the failure messages.
    static func queueCounts(_ transport: StreamingURLSessionTransport) -> String {
        let queue = (transport.session.delegateQueue as? DirectDelegateQueue)?.counts
        return "most callbacks under way \(queue?.mostRunning ?? -1) of \(queue?.ran ?? -1),"
            + " largest chunk \(transport.counts.largestChunk) bytes; VmHWM \(peakResidentMiB()) MiB"
    }

    /// Whether no callback ever waited in the delegate queue: FoundationNetworking adds every
    /// one from its work queue, which is serial, so one at a time was under way. (Without
    /// `DirectDelegateQueue` this is false from the cast alone; the bytes sent, below, are what
    /// tells the behaviour apart.)
    static func nothingWaited(_ transport: StreamingURLSessionTransport) -> Bool {
        guard let counts = (transport.session.delegateQueue as? DirectDelegateQueue)?.counts else { return false }
        return counts.ran > 0 && counts.mostRunning == 1
    }

    /// What may leave the server before the client sees a response pass its limit, beyond the
    /// limit itself: the kernel's buffers (up to 6 MiB on Linux) and a margin. Measured at that
    /// moment, so that what libcurl reads (and the delegate drops) until the cancel lands, whose
    /// length depends on the machine, is not counted: with `DirectDelegateQueue` 1 to 4 MiB
    /// beyond the limit; with a queue that runs callbacks later, hundreds.
    static let starvedReadAhead = 32 << 20

    /// What may leave the server beyond the limits when the delegate is slow: the kernel's
    /// buffers (the server's send buffer, the client's receive buffer, up to 6 MiB on Linux) and
    /// what libcurl reads, and the delegate drops as it arrives, until the cancel lands (it
    /// waits for the work queue libcurl keeps while data keeps coming). With a queue that runs
    /// callbacks later, libcurl read ahead for as long as the delegate took to reach the limit:
    /// 4,369 MiB for two event connections.
    static let starvedSlack = 256 << 20

    @Test func anEndlessEventLineToAStarvedDelegateStopsTheServerEarly() async throws {
        let server = try Self.server { _, connection in
            connection.writeHead([("Content-Type", "text/event-stream")])
            connection.write("data: ")
            connection.stream(Self.hugeBody, of: Self.pattern)
        }
        defer { server.stop() }
        let transport = Self.starvedTransport()
        let service = try await Self.signedIn(server, transport: transport, events: true)
        // The first moment the delegate has seen more of the event line than the limit: what
        // left the server by then is what libcurl read ahead of it.
        let passed = await poll(timeout: .seconds(30)) { transport.counts.largestResponse > Self.limit }
        let sentAtTheLimit = server.bytesSent
        #expect(passed)
        #expect(
            sentAtTheLimit < Self.limit + Self.starvedReadAhead,
            "\(sentAtTheLimit >> 20) MiB sent when the delegate passed the limit")
        let reconnected = await poll(timeout: .seconds(30)) {
            server.requests.filter { $0.target == "/events" }.count >= 2
        }
        #expect(reconnected)
        await service.unauthenticate()
        let connections = server.requests.filter { $0.target == "/events" }.count
        let sent = await Self.bytesSentOnceIdle(server)
        print(
            "starved events: \(sentAtTheLimit >> 20) MiB sent at the limit, \(sent >> 20) MiB over \(connections)"
                + " connections; \(Self.queueCounts(transport))")
        #expect(sent < connections * (3 * Self.limit + Self.starvedSlack), "\(sent >> 20) MiB sent over \(connections) connections")
        #expect(Self.nothingWaited(transport), "\(Self.queueCounts(transport))")
    }

    /// A body nobody reads, through the transport alone (an OpenAPI client's request, its
    /// limit the transport's 16 MiB of unread bytes): the delegate takes 5 s to see 16 MiB, and
    /// with a queue that runs callbacks later libcurl read on at full speed meanwhile.
    @Test func aHugeBodyToAStarvedDelegateStopsTheServerEarly() async throws {
        let server = try LoopbackServer { _, connection in
            connection.writeHead([("Content-Type", "application/octet-stream")])
            connection.stream(Self.hugeBody, of: Self.pattern)
        }
        defer { server.stop() }
        let unread = 16 << 20
        let transport = Self.starvedTransport(maximumBufferedBytes: unread)
        let (response, body) = try await transport.send(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/blob"), body: nil, baseURL: server.baseURL,
            operationID: "blob")
        #expect(response.status == .ok)
        // Nothing reads the body: the transport stops once 16 MiB wait unread.
        let passed = await poll(timeout: .seconds(60)) { transport.counts.mostUnread > unread }
        let sentAtTheLimit = server.bytesSent
        let sent = await Self.bytesSentOnceIdle(server)
        withExtendedLifetime(body) {}
        print("starved body: \(sentAtTheLimit >> 20) MiB sent at the limit, \(sent >> 20) MiB in all; \(Self.queueCounts(transport))")
        #expect(passed)
        #expect(transport.counts.mostUnread <= unread + Self.pattern.count)
        #expect(sentAtTheLimit < unread + Self.starvedReadAhead, "\(sentAtTheLimit >> 20) MiB sent at the limit")
        #expect(sent < unread + Self.starvedSlack, "\(sent >> 20) MiB sent")
        #expect(Self.nothingWaited(transport), "\(Self.queueCounts(transport))")
    }
}
#endif

extension HostileServerTests {
    /// The process's peak resident memory so far (VmHWM), in MiB; -1 where /proc is missing.
    static func peakResidentMiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return -1 }
        return kib >> 10
    }
}
