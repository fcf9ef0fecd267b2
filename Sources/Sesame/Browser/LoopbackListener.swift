#if os(macOS) || os(Linux)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one-shot HTTP listener of a ``LoopbackBrowser`` on 127.0.0.1 or ::1 (RFC 8252 §7.3), over
/// POSIX sockets: no NIO, so that apps do not resolve it. It accepts connections on a thread
/// of its own (never one of the cooperative pool's) and serves each on a thread of its own,
/// at most ``maximumConnections`` at once (503 beyond), so that a slow local client cannot
/// hold up the browser's redirect. Every read is bounded: a request head of at most
/// ``maximumHeadSize`` bytes, read within ``readTimeout``. A request that is too large, too
/// slow, not a `GET`, for another path or with another `state` than the authorization
/// request's is refused (431, 408, 405, 404, 400) and the wait goes on: no stray request
/// ends it. The first `GET` of the redirect path with the expected `state` is answered with
/// a small page and ends the wait, and the listener stops listening. Internal.
final class LoopbackListener: @unchecked Sendable {
    /// The largest request head read, in bytes; a larger one is refused with 431.
    static let maximumHeadSize = 8 << 10
    /// The longest a connection may take to send its request head.
    static let readTimeout: Duration = .seconds(5)
    /// How many connections are served at once; one more is answered 503 and closed.
    static let maximumConnections = 16

    /// The port the listener is bound to.
    let port: UInt16
    private let descriptor: Int32
    private let lock = NSLock()
    /// Guarded by `lock`: whether ``close()`` was called, whether a wait runs (which then
    /// closes the socket itself when it stops), whether it has stopped (its connections then
    /// stop reading), the redirect's request target once received, and how many connections
    /// are being served.
    private var closed = false
    private var waiting = false
    private var released = false
    private var finished = false
    private var received: String?
    private var serving = 0

    /// The loopback address a listener binds: IPv4's `127.0.0.1` or IPv6's `::1`, the two
    /// RFC 8252 §7.3 names (never `localhost`, which may resolve elsewhere, §8.3).
    enum Address: Sendable, Equatable {
        case ipv4
        case ipv6

        /// The address as a URI's host: `127.0.0.1` or `[::1]`.
        var uriHost: String { self == .ipv4 ? "127.0.0.1" : "[::1]" }

        /// The address of a URI's host (`127.0.0.1`, `[::1]` or `::1`), nil for any other.
        init?(uriHost host: String?) {
            switch host {
            case "127.0.0.1": self = .ipv4
            case "[::1]", "::1": self = .ipv6
            default: return nil
            }
        }
    }

    /// The address the listener is bound to.
    let address: Address

    /// Binds `address`:`port` (0: a free port the system chooses) and listens.
    /// - Throws: ``LoopbackBrowserError/cannotListen(reason:)``.
    init(address: Address = .ipv4, port: UInt16) throws {
        let family = address == .ipv4 ? AF_INET : AF_INET6
        #if canImport(Darwin)
        let descriptor = socket(family, SOCK_STREAM, 0)
        #else
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw LoopbackBrowserError.cannotListen(reason: Self.errorText(errno)) }
        var storage = sockaddr_storage()
        let length: socklen_t
        switch address {
        case .ipv4:
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { socket in
                    socket.pointee.sin_family = sa_family_t(AF_INET)
                    socket.pointee.sin_port = port.bigEndian
                    socket.pointee.sin_addr.s_addr = inet_addr("127.0.0.1")
                }
            }
        case .ipv6:
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { socket in
                    socket.pointee.sin6_family = sa_family_t(AF_INET6)
                    socket.pointee.sin6_port = port.bigEndian
                    socket.pointee.sin6_addr = in6addr_loopback
                }
            }
        }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 32) == 0 else {
            let code = errno
            _ = Self.closeDescriptor(descriptor)
            throw LoopbackBrowserError.cannotListen(reason: "\(address.uriHost):\(port): \(Self.errorText(code))")
        }
        var boundLength = length
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &boundLength) }
        }
        // Both families keep the port at the same offset, right after the family.
        let boundPort = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port }
        }
        self.descriptor = descriptor
        self.address = address
        self.port = UInt16(bigEndian: boundPort)
    }

    deinit { release() }

    /// Stops listening: a wait under way ends with ``BrowserSignInError/cancelled`` within
    /// a tenth of a second. Does nothing the second time.
    func close() {
        let closeNow = lock.withLock {
            closed = true
            return !waiting
        }
        if closeNow { release() }
    }

    /// Waits until `deadline` for the `GET` of `path` whose query's `state` is `state` (any
    /// when nil), answers it with `page`, and stops listening.
    /// - Returns: the request target as sent (`/callback?code=…&state=…`).
    /// - Throws: ``BrowserSignInError/cancelled`` once ``close()`` was called or the task
    ///   cancelled; ``LoopbackBrowserError/timedOut`` past `deadline`.
    func receive(path: String, state: String?, page: String, deadline: ContinuousClock.Instant) async throws -> String {
        let started = lock.withLock {
            guard !closed, !waiting else { return false }
            waiting = true
            return true
        }
        guard started else { throw BrowserSignInError.cancelled }
        let redirect = Redirect(path: path, state: state, page: page)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread { [self] in
                    let result = Result { try wait(for: redirect, deadline: deadline) }
                    lock.withLock { waiting = false }
                    release()
                    continuation.resume(with: result)
                }.start()
            }
        } onCancel: {
            close()
        }
    }

    /// What the wait is for: the redirect path, the authorization request's `state`, and the
    /// page that answers it.
    private struct Redirect: Sendable {
        var path: String
        var state: String?
        var page: String
    }

    private var isClosed: Bool { lock.withLock { closed } }
    /// Whether a connection should stop reading: the listener was closed or the wait ended.
    private var isStopping: Bool { lock.withLock { closed || finished } }

    /// The blocking wait, on its own thread: accepts connections and serves each on a thread
    /// of its own until one brings the redirect. Returns once every connection's thread ended
    /// (within a read's 200 ms once the wait stops).
    private func wait(for redirect: Redirect, deadline: ContinuousClock.Instant) throws -> String {
        let connections = DispatchGroup()
        defer {
            lock.withLock { finished = true }
            connections.wait()
        }
        while true {
            if let target = lock.withLock({ received }) { return target }
            if isClosed { throw BrowserSignInError.cancelled }
            if ContinuousClock.now >= deadline { throw LoopbackBrowserError.timedOut }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            Self.configure(connection)
            let admitted = lock.withLock {
                guard serving < Self.maximumConnections else { return false }
                serving += 1
                return true
            }
            guard admitted else {
                Self.respond(connection, status: "503 Service Unavailable", body: "")
                _ = Self.closeDescriptor(connection)
                continue
            }
            connections.enter()
            Thread { [self] in
                serve(connection, redirect: redirect)
                _ = Self.closeDescriptor(connection)
                lock.withLock { serving -= 1 }
                connections.leave()
            }.start()
        }
    }

    /// Reads one request and answers it: the redirect with the page (recording its target
    /// for the wait), anything else with its refusal.
    private func serve(_ connection: Int32, redirect: Redirect) {
        switch readHead(connection) {
        case .failure(let failure):
            Self.respond(connection, status: failure.status, body: "")
        case .success(let head):
            switch Self.answer(toHead: head, path: redirect.path, state: redirect.state) {
            case .refused(let status):
                Self.respond(connection, status: status, body: "")
            case .redirect(let target):
                lock.withLock { if received == nil { received = target } }
                Self.respond(connection, status: "200 OK", body: redirect.page)
            }
        }
    }

    /// What a request head gets.
    enum Answer: Equatable {
        /// The redirect: its request target as sent.
        case redirect(String)
        /// Anything else, with the status line's code and reason.
        case refused(String)
    }

    /// The answer to a request `head` (up to its blank line) while waiting for the `GET` of
    /// `path` with `state` (any when nil): pure, so that it is tested and fuzzed on its own.
    static func answer(toHead head: String, path: String, state: String?) -> Answer {
        // The request line: up to the first CRLF ("\r\n" is one Character in Swift).
        let line = head.components(separatedBy: "\r\n").first ?? ""
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), parts[1].hasPrefix("/"), !line.contains("\n") else {
            return .refused("400 Bad Request")
        }
        guard parts[0] == "GET" else { return .refused("405 Method Not Allowed") }
        let target = String(parts[1])
        guard target.prefix(while: { $0 != "?" && $0 != "#" }) == path else { return .refused("404 Not Found") }
        // Not the answer to this authorization request: a stale tab, or a forgery.
        if let state, Self.state(of: target) != state { return .refused("400 Bad Request") }
        return .redirect(target)
    }

    /// The `state` query parameter of a request target, percent-decoded; nil when it has
    /// none or more than one.
    static func state(of target: String) -> String? {
        state(in: URLComponents(string: "http://127.0.0.1" + target))
    }

    /// The one `state` query parameter of `components`, percent-decoded; nil when there is
    /// none or more than one.
    static func state(in components: URLComponents?) -> String? {
        let states = (components?.queryItems ?? []).filter { $0.name == "state" }
        return states.count == 1 ? states[0].value : nil
    }

    /// Bounds a connection's reads (200 ms each, so that it notices the wait's end) and
    /// writes, and keeps a closed peer from raising SIGPIPE.
    private static func configure(_ connection: Int32) {
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sendTimeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var yes: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Reads a request head: up to the blank line, at most ``maximumHeadSize`` bytes within
    /// ``readTimeout``, or until the wait ends. The body, if any, is never read.
    private func readHead(_ connection: Int32) -> Result<String, HeadFailure> {
        let deadline = ContinuousClock.now + Self.readTimeout
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 2048)
        while ContinuousClock.now < deadline, !isStopping {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { continue }
            guard count > 0 else { return .failure(HeadFailure(status: "400 Bad Request")) }
            data += buffer[0..<count]
            if let end = Self.headEnd(in: data), end <= Self.maximumHeadSize {
                return .success(String(decoding: data[0..<end], as: UTF8.self))
            }
            if data.count > Self.maximumHeadSize { return .failure(HeadFailure(status: "431 Request Header Fields Too Large")) }
        }
        return .failure(HeadFailure(status: "408 Request Timeout"))
    }

    private struct HeadFailure: Error {
        var status: String
    }

    private static func headEnd(in data: [UInt8]) -> Int? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard data.count >= 4 else { return nil }
        return (0...(data.count - 4)).first { data[$0..<($0 + 4)].elementsEqual(separator) }
    }

    /// Writes a whole response and closes the connection's sending side.
    private static func respond(_ connection: Int32, status: String, body: String) {
        let bytes = Array(body.utf8)
        var head = "HTTP/1.1 \(status)\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\nCache-Control: no-store\r\n"
        if !bytes.isEmpty { head += "Content-Type: text/html; charset=utf-8\r\n" }
        let response = Array((head + "\r\n").utf8) + bytes
        var offset = 0
        while offset < response.count {
            let written = response.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                Darwin.send(connection, buffer.baseAddress! + offset, buffer.count - offset, 0)
                #else
                send(connection, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                #endif
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
        shutdown(connection, Int32(SHUT_WR))
    }

    /// Closes the listening socket once.
    private func release() {
        let closing = lock.withLock {
            defer { released = true }
            return !released
        }
        if closing { _ = Self.closeDescriptor(descriptor) }
    }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(descriptor)
        #else
        Glibc.close(descriptor)
        #endif
    }

    private static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
#endif
