#if os(macOS) || os(Linux)
import Foundation
@testable import Sesame
import SesameTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The loopback browser (RFC 8252 §7.3) over real sockets: it listens on a free port,
/// refuses what is not the redirect's `GET`, answers the redirect with a page, and stops
/// listening; a dismissal or a cancellation closes the listener at once.
@Suite struct LoopbackBrowserTests {
    static let page = URL(string: "https://idp.test/oauth/authorize?state=s")!

    @Test func itRefusesHostileRequestsAnswersTheRedirectAndStopsListening() async throws {
        let statuses = LockedValue<[String]>([])
        let browser = LoopbackBrowser(timeout: .seconds(20)) { url in
            // The opener plays the system browser and whoever else knocks on the port.
            let port = try #require(URL(string: queryParameters(of: url)["redirect_uri"] ?? "")?.port)
            let requests = [
                "POST /callback?code=c HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n",
                "GET /favicon.ico HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                "GET /callbackx?code=c HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                "GET /callback?code=c HTTP/1.1\r\nX-Padding: " + String(repeating: "a", count: 9000) + "\r\n\r\n",
                "not http at all\r\n\r\n",
                "GET /callback?code=c1&state=s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            ]
            for request in requests {
                let answer = try await onOwnThread { try RawSocket.exchange(port: port, Array(request.utf8)) }
                statuses.set(statuses.value + [answer])
            }
        }
        let prepared = try await browser.prepareRedirect(to: URL(string: "http://127.0.0.1/callback")!)
        let port = try #require(prepared.port)
        #expect(prepared.absoluteString == "http://127.0.0.1:\(port)/callback")
        let authorization = URL(string: "https://idp.test/oauth/authorize?redirect_uri=\(prepared.absoluteString)")!
        let redirect = try await browser.authorize(url: authorization, redirectURI: prepared)
        #expect(redirect.absoluteString == "http://127.0.0.1:\(port)/callback?code=c1&state=s")
        let answers = statuses.value
        #expect(
            answers.map { $0.components(separatedBy: "\r\n").first ?? "" } == [
                "HTTP/1.1 405 Method Not Allowed", "HTTP/1.1 404 Not Found", "HTTP/1.1 404 Not Found",
                "HTTP/1.1 431 Request Header Fields Too Large", "HTTP/1.1 400 Bad Request", "HTTP/1.1 200 OK",
            ])
        #expect(answers.last?.contains("You can close this window and return to the app.") == true)
        // The listener is closed: the port refuses connections.
        #expect(throws: RawSocket.Failure.self) { try RawSocket.connect(port: port) }
    }

    /// RFC 8252 §7.3 names IPv6's loopback too: `http://[::1]/cb` listens on ::1 only.
    @Test func anIPv6LoopbackRedirectIsListenedOnAtColonColonOne() async throws {
        let answer = LockedValue("")
        let browser = LoopbackBrowser(timeout: .seconds(20)) { url in
            let port = try #require(URL(string: queryParameters(of: url)["redirect_uri"] ?? "")?.port)
            // Nothing listens on 127.0.0.1 at that port: the listener is IPv6's.
            #expect(throws: RawSocket.Failure.self) { try RawSocket.connect(port: port) }
            let request = "GET /cb?code=c6&state=s HTTP/1.1\r\nHost: [::1]\r\n\r\n"
            answer.set(try await onOwnThread { try RawSocket.exchange(port: port, ipv6: true, Array(request.utf8)) })
        }
        let prepared = try await browser.prepareRedirect(to: URL(string: "http://[::1]/cb")!)
        let port = try #require(prepared.port)
        #expect(prepared.absoluteString == "http://[::1]:\(port)/cb")
        let encoded = try #require(prepared.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let authorization = try #require(URL(string: "https://idp.test/oauth/authorize?redirect_uri=\(encoded)"))
        let redirect = try await browser.authorize(url: authorization, redirectURI: prepared)
        #expect(redirect.absoluteString == "http://[::1]:\(port)/cb?code=c6&state=s")
        #expect(answer.value.hasPrefix("HTTP/1.1 200 OK"))
    }

    @Test func dismissingClosesTheListenerAtOnce() async throws {
        let opened = LockedValue(false)
        let browser = LoopbackBrowser(timeout: .seconds(20), opener: { _ in opened.set(true) })
        let prepared = try await browser.prepareRedirect(to: URL(string: "http://127.0.0.1/cb")!)
        let port = try #require(prepared.port)
        let waiting = Task { try await browser.authorize(url: Self.page, redirectURI: prepared) }
        // The page is open and the browser waits for the redirect: 20 s unless dismissed.
        #expect(await poll { opened.value })
        browser.dismiss()
        await #expect(throws: BrowserSignInError.cancelled) { try await waiting.value }
        #expect(throws: RawSocket.Failure.self) { try RawSocket.connect(port: port) }
    }

    @Test func cancellingTheTaskClosesTheListener() async throws {
        let opened = LockedValue(false)
        let browser = LoopbackBrowser(timeout: .seconds(20), opener: { _ in opened.set(true) })
        let prepared = try await browser.prepareRedirect(to: URL(string: "http://127.0.0.1/cb")!)
        let port = try #require(prepared.port)
        let waiting = Task { try await browser.authorize(url: Self.page, redirectURI: prepared) }
        #expect(await poll { opened.value })
        waiting.cancel()
        await #expect(throws: BrowserSignInError.cancelled) { try await waiting.value }
        #expect(throws: RawSocket.Failure.self) { try RawSocket.connect(port: port) }
    }

    @Test func itNeedsAnHTTPLoopbackRedirectURI() async throws {
        let browser = LoopbackBrowser(opener: { _ in })
        for uri in ["com.example.app://oauth/callback", "https://127.0.0.1/cb", "http://localhost/cb", "http://example.com/cb"] {
            await #expect(throws: LoopbackBrowserError.notLoopback(uri)) {
                try await browser.prepareRedirect(to: URL(string: uri)!)
            }
        }
    }

    @Test func aConfiguredPortIsListenedOn() async throws {
        // A port the system chose is free again once that listener closed.
        let free = try #require(try await LoopbackBrowser(opener: { _ in }).prepareRedirect(to: URL(string: "http://127.0.0.1/cb")!).port)
        let browser = LoopbackBrowser(port: UInt16(free), opener: { _ in })
        // Reused at once after a close, the port may linger in TIME_WAIT on some systems: retry briefly.
        var prepared: URL?
        for _ in 0..<20 where prepared == nil {
            prepared = try? await browser.prepareRedirect(to: URL(string: "http://127.0.0.1/cb")!)
            if prepared == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(prepared?.port == free)
        browser.dismiss()
    }
}

/// A blocking TCP client on 127.0.0.1 (or ::1), for ``onOwnThread``.
enum RawSocket {
    struct Failure: Error {}

    /// Connects to 127.0.0.1:`port`, or [::1]:`port` when `ipv6`; the caller closes the
    /// descriptor.
    static func connect(port: Int, ipv6: Bool = false) throws -> Int32 {
        #if canImport(Darwin)
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
        #else
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard descriptor >= 0 else { throw Failure() }
        var storage = sockaddr_storage()
        let length: socklen_t
        if ipv6 {
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_family = sa_family_t(AF_INET6)
                    $0.pointee.sin6_port = UInt16(port).bigEndian
                    $0.pointee.sin6_addr = in6addr_loopback
                }
            }
        } else {
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    $0.pointee.sin_family = sa_family_t(AF_INET)
                    $0.pointee.sin_port = UInt16(port).bigEndian
                    $0.pointee.sin_addr.s_addr = inet_addr("127.0.0.1")
                }
            }
        }
        let connected = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Darwin)
                Darwin.connect(descriptor, $0, length)
                #else
                Glibc.connect(descriptor, $0, length)
                #endif
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure()
        }
        // Generous: on a loaded machine the listener's threads may start late; a
        // listener that never answers still fails the test, only later.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    /// Sends `bytes` and reads the answer until the server closes the connection.
    static func exchange(port: Int, ipv6: Bool = false, _ bytes: [UInt8]) throws -> String {
        let descriptor = try connect(port: port, ipv6: ipv6)
        defer { close(descriptor) }
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
#endif
