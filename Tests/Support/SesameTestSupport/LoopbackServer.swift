import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw HTTP/1.1 server on 127.0.0.1 over POSIX sockets, for tests that need a server
/// misbehaving below what a framework lets one do: bodies of a gigabyte streamed without
/// `Content-Length`, lines that never end, one byte every few seconds, huge header fields,
/// odd status lines. No Hummingbird: the runtime's tests do not depend on it.
///
/// Each connection runs `handler` on a thread of its own with the request as it came and
/// the connection to answer on; the connection closes when the handler returns (so a body
/// without `Content-Length` ends there). The server counts every byte the kernel accepted
/// from the handlers, which is what a client can at most have read: a test asserts from it
/// that a client stopped reading, without timing anything. Its send buffer is small (64 KiB
/// by default) so that the count stays close to what the client took.
public final class LoopbackServer: @unchecked Sendable {
    /// A request as received: the method, the request target exactly as sent (not
    /// decoded), the header fields (names lowercased) and the body (`Content-Length` only).
    public struct Request: Sendable {
        public let method: String
        public let target: String
        public let headerFields: [String: String]
        public let body: Data
    }

    /// One accepted connection, to write the response on.
    public final class Connection: @unchecked Sendable {
        fileprivate let descriptor: Int32
        private let server: LoopbackServer

        fileprivate init(descriptor: Int32, server: LoopbackServer) {
            self.descriptor = descriptor
            self.server = server
        }

        /// Writes `bytes`; false once the peer has gone (the write failed).
        @discardableResult
        public func write(_ bytes: some Collection<UInt8>) -> Bool {
            let array = Array(bytes)
            var offset = 0
            while offset < array.count {
                let written = array.withUnsafeBytes { buffer in
                    #if canImport(Darwin)
                    Darwin.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, 0)
                    #else
                    send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                    #endif
                }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
                server.counted(written)
            }
            return true
        }

        /// Holds the connection open, sending nothing, until the peer closes it (or the
        /// server stops); what the peer sends meanwhile is discarded.
        public func waitUntilClosed() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 || (count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) { continue }
                return
            }
        }

        /// Writes `text` as UTF-8; false once the peer has gone.
        @discardableResult
        public func write(_ text: String) -> Bool { write(Array(text.utf8)) }

        /// Writes a status line and header fields (and the blank line after them).
        @discardableResult
        public func writeHead(status: String = "200 OK", _ fields: [(String, String)] = []) -> Bool {
            var head = "HTTP/1.1 \(status)\r\n"
            for (name, value) in fields { head += "\(name): \(value)\r\n" }
            head += "Connection: close\r\n\r\n"
            return write(head)
        }

        /// Writes `total` bytes of `pattern` repeated, in writes of `pattern.count`; stops
        /// when the peer goes. Returns how many were written.
        @discardableResult
        public func stream(_ total: Int, of pattern: [UInt8]) -> Int {
            var sent = 0
            while sent < total {
                let chunk = pattern.prefix(total - sent)
                guard write(chunk) else { break }
                sent += chunk.count
            }
            return sent
        }
    }

    public typealias Handler = @Sendable (Request, Connection) -> Void

    /// The port the server listens on.
    public let port: UInt16
    private let listener: Int32
    private let handler: Handler
    private let sendBufferSize: Int32
    private let lock = NSLock()
    private var received: [Request] = []
    private var sent = 0
    private var open: Set<Int32> = []
    private var stopped = false

    /// `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// Every request received so far, in order.
    public var requests: [Request] { lock.withLock { received } }
    /// Every byte the kernel accepted from the handlers so far (heads included).
    public var bytesSent: Int { lock.withLock { sent } }
    /// How many connections are open (a handler still running): once it is 0 after a
    /// response, ``bytesSent`` no longer grows.
    public var openConnections: Int { lock.withLock { open.count } }

    /// Listens on an ephemeral loopback port and starts accepting.
    /// - Throws: `POSIXError` when the socket cannot be set up.
    public init(sendBufferSize: Int = 64 << 10, handler: @escaping Handler) throws {
        self.handler = handler
        self.sendBufferSize = Int32(sendBufferSize)
        #if canImport(Darwin)
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.listener = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting and closes every open connection (a handler blocked writing then
    /// fails its write and returns).
    public func stop() {
        let descriptors = lock.withLock { () -> [Int32] in
            guard !stopped else { return [] }
            stopped = true
            return Array(open) + [listener]
        }
        for descriptor in descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
        if !descriptors.isEmpty { close(listener) }
    }

    fileprivate func counted(_ bytes: Int) {
        lock.withLock { sent += bytes }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            let accepted = lock.withLock { () -> Bool in
                guard !stopped else { return false }
                open.insert(connection)
                return true
            }
            guard accepted else {
                close(connection)
                return
            }
            var size = sendBufferSize
            setsockopt(connection, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ descriptor: Int32) {
        defer {
            let owned = lock.withLock { open.remove(descriptor) != nil }
            if owned {
                shutdown(descriptor, Int32(SHUT_RDWR))
                close(descriptor)
            }
        }
        guard let request = readRequest(descriptor) else { return }
        lock.withLock { received.append(request) }
        handler(request, Connection(descriptor: descriptor, server: self))
    }

    /// Reads a request head (at most 64 KiB) and a `Content-Length` body (at most 1 MiB).
    private func readRequest(_ descriptor: Int32) -> Request? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0, data.count < 64 << 10 else { return nil }
            data += buffer[0..<count]
            headEnd = Self.firstRange(of: separator, in: data)
        }
        guard let headEnd else { return nil }
        let head = String(decoding: data[0..<headEnd], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard requestLine.count >= 2 else { return nil }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(data[(headEnd + separator.count)...])
        let length = min(Int(fields["content-length"] ?? "") ?? 0, 1 << 20)
        while body.count < length {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            body += buffer[0..<count]
        }
        return Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headerFields: fields, body: Data(body))
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
