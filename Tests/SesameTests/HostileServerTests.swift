import Foundation
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription
@_spi(Generated) @testable import Sesame

/// The runtime against a server that misbehaves on purpose, over loopback (a raw-socket
/// `LoopbackServer`, no framework): bodies of 4 GiB without `Content-Length`, an event line
/// that never ends, one byte every 400 ms, huge header fields, redirect loops, odd status
/// codes. Each gets a typed error, and the assertions count bytes (what the transport
/// received for one response, what the server could send), never time: the limit is 1 MiB
/// here, and the transport never takes more than it and a chunk.
@Suite struct HostileServerTests {
    static let limit = 1 << 20
    /// The hostile bodies: 4 GiB, streamed (more than the 1 GiB of issue 29, for margin); 16 GiB
    /// in the soak (`HostileServerSoakTests`), where the bounds below stay the same.
    static let hugeBody = (HostileServerSoakTests.rounds == nil ? 4 : 16) << 30
    /// How many times the endless event line must make the stream reconnect: 2, and 10 in the soak.
    static let reconnections = HostileServerSoakTests.rounds == nil ? 2 : 10
    /// What may leave the server beyond the limit: the kernel's buffers (the server's 64 KiB
    /// send buffer, the client's receive buffer, which Linux grows up to 6 MiB) and what libcurl
    /// reads, and the transport drops as it arrives, until the cancel at the limit lands (the
    /// cancel waits for FoundationNetworking's work queue, which libcurl keeps while data keeps
    /// coming). Before `DirectDelegateQueue`, libcurl also read ahead of a delegate that got
    /// little of the CPU: 38, 316 and 780 MiB seen with the whole of `SesameTests` running on two
    /// busy cores (docs/runtime.md, "Response limits"). The bound stays generous, as this test
    /// only says that reading stopped well before the end of 4 GiB (before issue 29 all of it
    /// was read); the starved delegate of `HostileServerTests+ReadAhead.swift` checks the
    /// read-ahead itself, and what Sesame holds is asserted to the chunk, from the transport's
    /// counts.
    static let readAhead = 2 << 30
    static let pattern = [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
    static let token = #"{"access_token":"a1","refresh_token":"r1","expires_in":3600}"#

    /// Answers the sign-in and the details as a good server would, and `hostile` for the rest.
    static func server(_ hostile: @escaping LoopbackServer.Handler) throws -> LoopbackServer {
        try LoopbackServer { request, connection in
            switch request.target {
            case "/auth/guest": json(Self.token, on: connection)
            case "/me": json(#"{"uid":"u1","provider":"guest"}"#, on: connection)
            default: hostile(request, connection)
            }
        }
    }

    static func json(_ text: String, status: String = "200 OK", on connection: LoopbackServer.Connection) {
        connection.writeHead(status: status, [("Content-Type", "application/json"), ("Content-Length", "\(text.utf8.count)")])
        connection.write(text)
    }

    /// A signed-in service for `server`, over a transport of its own (whose counts the
    /// test reads).
    static func signedIn(
        _ server: LoopbackServer, transport: StreamingURLSessionTransport, events: Bool = false,
        requestTimeout: Duration = .seconds(60), refreshTimeout: Duration = .seconds(60), logs: LogCapture = LogCapture()
    ) async throws -> AuthenticationService<TestSchema> {
        let service = AuthenticationService<TestSchema>(
            configuration: .init(
                baseURL: server.baseURL, client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"),
                transport: transport, logger: logs.logger(), receivesServerEvents: events,
                eventStreamReconnectDelay: .milliseconds(50),
                maximumResponseSize: limit, eventTransport: transport, requestTimeout: requestTimeout,
                refreshTimeout: refreshTimeout))
        _ = try await service.authenticate(with: TestSingleStepMethod.guest)
        return service
    }

    /// Once the server's handlers have returned, the bytes it sent, which stopped growing.
    static func bytesSentOnceIdle(_ server: LoopbackServer) async -> Int {
        _ = await poll(timeout: .seconds(30)) { server.openConnections == 0 }
        return server.bytesSent
    }

    // MARK: Bodies

    @Test func aHugeOperationBodyWithoutLengthStopsAtTheLimit() async throws {
        let server = try Self.server { _, connection in
            connection.writeHead([("Content-Type", "application/json")])
            connection.stream(Self.hugeBody, of: Self.pattern)
        }
        defer { server.stop() }
        let transport = StreamingURLSessionTransport()
        let service = try await Self.signedIn(server, transport: transport)
        await #expect(throws: SesameError.decoding(operation: "listNotes", reason: "$: the response is larger than 1048576 bytes")) {
            try await service.perform(OperationRequest(TestRequests.notes))
        }
        #expect(transport.counts.largestResponse <= Self.limit + Self.pattern.count)
        let sent = await Self.bytesSentOnceIdle(server)
        #expect(sent < Self.readAhead, "\(sent >> 20) MiB sent")
    }

    @Test func aHugeErrorBodyIsDroppedAtTheLimitAndTheStatusKept() async throws {
        let server = try Self.server { _, connection in
            connection.writeHead(status: "500 Internal Server Error", [("Content-Type", "application/json")])
            connection.stream(Self.hugeBody, of: Self.pattern)
        }
        defer { server.stop() }
        let transport = StreamingURLSessionTransport()
        let service = try await Self.signedIn(server, transport: transport)
        let error = await #expect(throws: TestServerError.self) { try await service.perform(OperationRequest(TestRequests.notes)) }
        #expect(error?.response.status == 500)
        #expect(error?.response.code == nil)
        #expect(transport.counts.largestResponse <= Self.limit + Self.pattern.count)
        let sent = await Self.bytesSentOnceIdle(server)
        #expect(sent < Self.readAhead, "\(sent >> 20) MiB sent")
    }

    @Test func aHugeTokenResponseStopsAtTheLimitAndSignsNoOneIn() async throws {
        let server = try LoopbackServer { _, connection in
            connection.writeHead([("Content-Type", "application/json")])
            connection.stream(Self.hugeBody, of: Self.pattern)
        }
        defer { server.stop() }
        let transport = StreamingURLSessionTransport()
        let service = AuthenticationService<TestSchema>(
            configuration: .init(
                baseURL: server.baseURL, transport: transport, receivesServerEvents: false, maximumResponseSize: Self.limit))
        await #expect(throws: SesameError.decoding(operation: "guest", reason: "$: the response is larger than 1048576 bytes")) {
            try await service.authenticate(with: TestSingleStepMethod.guest)
        }
        #expect(await service.state == .unauthenticated)
        #expect(transport.counts.largestResponse <= Self.limit + Self.pattern.count)
        let sent = await Self.bytesSentOnceIdle(server)
        #expect(sent < Self.readAhead, "\(sent >> 20) MiB sent")
    }

    @Test func aHugeRefreshResponseStopsAtTheLimit() async throws {
        let expired = #"{"access_token":"a1","refresh_token":"r1","expires_in":0}"#
        let server = try LoopbackServer { request, connection in
            switch request.target {
            case "/auth/guest": Self.json(expired, on: connection)
            case "/me": Self.json(#"{"uid":"u1","provider":"guest"}"#, on: connection)
            default:  // the refresh, at /oauth/token
                connection.writeHead([("Content-Type", "application/json")])
                connection.stream(Self.hugeBody, of: Self.pattern)
            }
        }
        defer { server.stop() }
        let transport = StreamingURLSessionTransport()
        let service = try await Self.signedIn(server, transport: transport)
        await #expect(throws: SesameError.decoding(operation: "token", reason: "$: the response is larger than 1048576 bytes")) {
            try await service.perform(OperationRequest(TestRequests.notes))
        }
        #expect(server.requests.contains { $0.target == "/oauth/token" })
        #expect(transport.counts.largestResponse <= Self.limit + Self.pattern.count)
        let sent = await Self.bytesSentOnceIdle(server)
        #expect(sent < Self.readAhead, "\(sent >> 20) MiB sent")
    }

    /// Signing out sends the schema's sign-out request after the state changed: its 1 GiB
    /// answer is read no further than the limit either.
    @Test func aHugeSignOutResponseStopsAtTheLimit() async throws {
        let server = try Self.server { _, connection in
            connection.writeHead([("Content-Type", "application/json")])
            connection.stream(Self.hugeBody, of: Self.pattern)
        }
        defer { server.stop() }
        let transport = StreamingURLSessionTransport()
        let service = try await Self.signedIn(server, transport: transport)
        await service.unauthenticate()
        #expect(await service.state == .unauthenticated)
        #expect(await poll(timeout: .seconds(30)) { server.requests.contains { $0.target == "/auth/logout" } })
        let sent = await Self.bytesSentOnceIdle(server)
        #expect(sent < Self.readAhead, "\(sent >> 20) MiB sent")
        #expect(transport.counts.largestResponse <= Self.limit + Self.pattern.count)
    }

    /// A declared length past the limit is refused from the head, before any of the body.
    @Test func aDeclaredHugeLengthIsRefusedFromItsHead() async throws {
        let server = try Self.server { _, connection in
            connection.writeHead([("Content-Type", "application/json"), ("Content-Length", "\(Self.hugeBody)")])
            connection.stream(Self.hugeBody, of: Self.pattern)
        }
        defer { server.stop() }
        let transport = StreamingURLSessionTransport()
        let service = try await Self.signedIn(server, transport: transport)
        await #expect(throws: SesameError.decoding(operation: "listNotes", reason: "$: the response is larger than 1048576 bytes")) {
            try await service.perform(OperationRequest(TestRequests.notes))
        }
        #expect(transport.counts.largestResponse <= Self.limit + Self.pattern.count)
        let sent = await Self.bytesSentOnceIdle(server)
        #expect(sent < Self.readAhead, "\(sent >> 20) MiB sent")
    }

    // MARK: Events

    /// An event line that never ends, 4 GiB of it as fast as the socket takes it: the stream
    /// fails and reconnects, and no more than the limits are ever held (the event limit, or,
    /// when the reader falls behind, the transport's limit of unread bytes).
    @Test func anEndlessEventLineIsCutAndTheStreamReconnects() async throws {
        let server = try Self.server { _, connection in
            connection.writeHead([("Content-Type", "text/event-stream")])
            connection.write("data: ")
            connection.stream(Self.hugeBody, of: Self.pattern)
        }
        defer { server.stop() }
        let transport = StreamingURLSessionTransport()
        let service = try await Self.signedIn(server, transport: transport, events: true)
        let reconnected = await poll(timeout: .seconds(15 * Self.reconnections)) {
            server.requests.filter { $0.target == "/events" }.count >= Self.reconnections
        }
        #expect(reconnected)
        await service.unauthenticate()
        // Read (at most the event limit) and unread (at most twice the limit).
        #expect(transport.counts.largestResponse <= 3 * Self.limit + Self.pattern.count)
        #expect(transport.counts.mostUnread <= 2 * Self.limit + Self.pattern.count)
        let connections = server.requests.filter { $0.target == "/events" }.count
        let sent = await Self.bytesSentOnceIdle(server)
        #expect(sent < connections * (3 * Self.readAhead), "\(sent >> 20) MiB sent over \(connections) connections")
    }

    /// One byte past the event limit, then nothing: only the event limit can end this
    /// stream (the transport's limit of unread bytes, twice as large, cannot be reached), so
    /// it fails with the event error and reconnects, however slowly the reader runs.
    @Test func anEventOneBytePastTheLimitFailsTheStream() async throws {
        let server = try Self.server { _, connection in
            connection.writeHead([("Content-Type", "text/event-stream")])
            // "data: " and limit - 5 bytes: an event of limit + 1 bytes, its line unended.
            connection.write("data: ")
            connection.stream(Self.limit - 5, of: Self.pattern)
            connection.waitUntilClosed()
        }
        defer { server.stop() }
        let logs = LogCapture()
        let service = try await Self.signedIn(server, transport: StreamingURLSessionTransport(), events: true, logs: logs)
        let reconnected = await poll(timeout: .seconds(30)) { server.requests.filter { $0.target == "/events" }.count >= 2 }
        #expect(reconnected)
        await service.unauthenticate()
        #expect(logs.text.contains("an event of the stream is larger than 1048576 bytes; reconnecting"))
    }

    @Test func eventsLargerThanTheLimitFailTheScanWhicheverWayLinesEnd() {
        for terminator in ["\n", "\r", "\r\n"] {
            var scanner = EventSizeScanner()
            let line = Array("data: \(String(repeating: "x", count: 90))\(terminator)".utf8)
            // Ten lines of 96 bytes in one event (no blank line): 960 bytes; the eleventh passes 1000.
            let accepted = (0..<11).map { _ in scanner.scan(line[...], limit: 1000) }
            #expect(accepted == Array(repeating: true, count: 10) + [false], "\(Array(terminator.utf8))")
            // A blank line ends the event and starts the count again.
            var fresh = EventSizeScanner()
            var all = true
            for _ in 0..<30 {
                all = fresh.scan(line[...], limit: 1000) && all
                all = fresh.scan(Array(terminator.utf8)[...], limit: 1000) && all
            }
            #expect(all)
            #expect(fresh.eventSize == 0)
        }
        // One endless line, fed a byte at a time.
        var scanner = EventSizeScanner()
        let accepted = (0..<1001).map { _ in scanner.scan([UInt8(ascii: "a")], limit: 1000) }
        #expect(accepted == Array(repeating: true, count: 1000) + [false])
    }

    // MARK: Deadlines

    @Test func aServerSendingAByteAtATimeTimesOut() async throws {
        let server = try Self.server { _, connection in
            connection.writeHead([("Content-Type", "application/json")])
            for _ in 0..<100 {
                guard connection.write("{") else { return }
                Thread.sleep(forTimeInterval: 0.4)
            }
        }
        defer { server.stop() }
        let service = try await Self.signedIn(server, transport: StreamingURLSessionTransport(), requestTimeout: .seconds(1))
        await #expect(throws: SesameError.transport(operation: "listNotes", reason: "timed out: the request took longer than 1.0 s")) {
            try await service.perform(OperationRequest(TestRequests.notes))
        }
    }

    @Test func aSlowRefreshTimesOutAsATransientFailure() async throws {
        let expired = #"{"access_token":"a1","refresh_token":"r1","expires_in":0}"#
        let server = try LoopbackServer { request, connection in
            switch request.target {
            case "/auth/guest": Self.json(expired, on: connection)
            case "/me": Self.json(#"{"uid":"u1","provider":"guest"}"#, on: connection)
            default:
                connection.writeHead([("Content-Type", "application/json")])
                for _ in 0..<100 {
                    guard connection.write(" ") else { return }
                    Thread.sleep(forTimeInterval: 0.4)
                }
            }
        }
        defer { server.stop() }
        let service = try await Self.signedIn(server, transport: StreamingURLSessionTransport(), refreshTimeout: .seconds(1))
        await #expect(throws: SesameError.transport(operation: "token", reason: "timed out: the refresh took longer than 1.0 s")) {
            try await service.perform(OperationRequest(TestRequests.notes))
        }
        // Transient: the session stays.
        #expect(await service.state.details?.uid == "u1")
    }

    // MARK: Heads and status codes

    @Test func aHugeHeaderFieldIsATransportError() async throws {
        let server = try Self.server { _, connection in
            connection.write("HTTP/1.1 200 OK\r\nX-Huge: ")
            connection.stream(4 << 20, of: Self.pattern)
            connection.write("\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        }
        defer { server.stop() }
        let service = try await Self.signedIn(server, transport: StreamingURLSessionTransport())
        let error = await #expect(throws: SesameError.self) { try await service.perform(OperationRequest(TestRequests.notes)) }
        guard case .transport = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
    }

    @Test func aRedirectLoopEndsAfterTheMaximum() async throws {
        let server = try Self.server { _, connection in
            connection.writeHead(status: "302 Found", [("Location", "/notes"), ("Content-Length", "0")])
        }
        defer { server.stop() }
        let service = try await Self.signedIn(server, transport: StreamingURLSessionTransport())
        let error = await #expect(throws: SesameError.self) { try await service.perform(OperationRequest(TestRequests.notes)) }
        guard case .transport = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(server.requests.filter { $0.target == "/notes" }.count == RedirectFollower.maximumRedirects + 1)
    }

    @Test(arguments: [("599 Odd", 599), ("999 Odder", 999), ("418 I'm a teapot", 418), ("600 ", 600)])
    func anOddErrorStatusKeepsItsCode(status: String, code: Int) async throws {
        let server = try Self.server { _, connection in
            Self.json("<html>", status: status, on: connection)
        }
        defer { server.stop() }
        let service = try await Self.signedIn(server, transport: StreamingURLSessionTransport())
        let error = await #expect(throws: TestServerError.self) { try await service.perform(OperationRequest(TestRequests.notes)) }
        #expect(error?.response.status == code)
        #expect(await service.state.details?.uid == "u1")
    }

    /// A status line without a reason phrase: FoundationNetworking refuses it (a transport
    /// error), Apple's URLSession reads the 503. Either way a typed error, the session kept.
    @Test func aStatusLineWithoutReasonIsATypedError() async throws {
        let server = try Self.server { _, connection in
            connection.write("HTTP/1.1 503\r\nConnection: close\r\n\r\n")
        }
        defer { server.stop() }
        let service = try await Self.signedIn(server, transport: StreamingURLSessionTransport())
        do {
            _ = try await service.perform(OperationRequest(TestRequests.notes))
            Issue.record("a 503 without a reason succeeded")
        } catch let error as TestServerError {
            #expect(error.response.status == 503)
        } catch let error as SesameError {
            guard case .transport = error else {
                Issue.record("expected a transport error, got \(error)")
                return
            }
        }
        #expect(await service.state.details?.uid == "u1")
    }
}
