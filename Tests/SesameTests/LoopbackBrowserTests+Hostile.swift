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

/// Other local processes on the loopback listener's port: a forged redirect, a flood of
/// probes and slow clients neither end the wait nor hold up the browser's real redirect.
@Suite struct LoopbackBrowserHostileTests {
    static func authorization(for prepared: URL, state: String) throws -> URL {
        let encoded = try #require(prepared.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        return try #require(URL(string: "https://idp.test/oauth/authorize?redirect_uri=\(encoded)&state=\(state)"))
    }

    static func port(of url: URL) throws -> Int {
        try #require(URL(string: queryParameters(of: url)["redirect_uri"] ?? "")?.port)
    }

    static func statusLine(_ answer: String) -> String {
        answer.components(separatedBy: "\r\n").first ?? ""
    }

    @Test func aWrongStateAndAFloodOfStrayRequestsDoNotEndTheWait() async throws {
        let statuses = LockedValue<[String]>([])
        let browser = LoopbackBrowser(timeout: .seconds(30)) { url in
            let port = try Self.port(of: url)
            // A forged redirect (another state, then none, then two), then more probes than
            // any count of stray requests could allow, then the browser's redirect.
            var requests = [
                "GET /callback?code=forged&state=other HTTP/1.1\r\n\r\n",
                "GET /callback?code=forged HTTP/1.1\r\n\r\n",
                "GET /callback?code=forged&state=s-1&state=s-1 HTTP/1.1\r\n\r\n",
            ]
            requests += Array(repeating: "GET /favicon.ico HTTP/1.1\r\n\r\n", count: 40)
            requests.append("GET /callback?code=real&state=s-1 HTTP/1.1\r\n\r\n")
            // On one thread: a resumption on the cooperative pool per request would wait for
            // whatever else the suite runs there.
            let all = requests
            let answers = try await onOwnThread { try all.map { try RawSocket.exchange(port: port, Array($0.utf8)) } }
            statuses.set(answers.map(Self.statusLine))
        }
        let prepared = try await browser.prepareRedirect(to: URL(string: "http://127.0.0.1/callback")!)
        let redirect = try await browser.authorize(url: try Self.authorization(for: prepared, state: "s-1"), redirectURI: prepared)
        #expect(redirect.query == "code=real&state=s-1")
        let answers = statuses.value
        #expect(Array(answers.prefix(3)) == Array(repeating: "HTTP/1.1 400 Bad Request", count: 3))
        #expect(answers.dropFirst(3).prefix(40).allSatisfy { $0 == "HTTP/1.1 404 Not Found" })
        #expect(answers.last == "HTTP/1.1 200 OK")
    }

    /// A percent-encoded `state` matches its decoded form, as the authorization request sent it.
    @Test func anEncodedStateMatches() {
        #expect(LoopbackListener.state(of: "/cb?code=c&state=a%2Bb%3D") == "a+b=")
        #expect(LoopbackBrowser.state(of: URL(string: "https://idp.test/a?state=a%2Bb%3D")!) == "a+b=")
        #expect(LoopbackListener.state(of: "/cb?code=c") == nil)
    }

    @Test func slowClientsDoNotHoldUpTheRedirect() async throws {
        let answer = LockedValue("")
        let browser = LoopbackBrowser(timeout: .seconds(30)) { url in
            let port = try Self.port(of: url)
            // Ten local clients that connect, send half a request line and wait: each would
            // take the listener's whole 5-second read deadline.
            let slow = try await onOwnThread {
                try (0..<10).map { _ in
                    let descriptor = try RawSocket.connect(port: port)
                    _ = Array("GET /call".utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
                    return descriptor
                }
            }
            defer { slow.forEach { close($0) } }
            // The browser's redirect is answered while all ten are still connected.
            let request = "GET /callback?code=real&state=s-2 HTTP/1.1\r\n\r\n"
            answer.set(try await onOwnThread { try RawSocket.exchange(port: port, Array(request.utf8)) })
        }
        let prepared = try await browser.prepareRedirect(to: URL(string: "http://127.0.0.1/callback")!)
        let redirect = try await browser.authorize(url: try Self.authorization(for: prepared, state: "s-2"), redirectURI: prepared)
        #expect(Self.statusLine(answer.value) == "HTTP/1.1 200 OK")
        #expect(redirect.query == "code=real&state=s-2")
    }

    @Test func connectionsBeyondTheLimitAreRefusedAndTheWaitGoesOn() async throws {
        let statuses = LockedValue<[String]>([])
        let browser = LoopbackBrowser(timeout: .seconds(30)) { url in
            let port = try Self.port(of: url)
            let held = try await onOwnThread {
                try (0..<LoopbackListener.maximumConnections).map { _ in try RawSocket.connect(port: port) }
            }
            // Every connection is being served: one more is answered at once with 503.
            let refused = try await onOwnThread { try RawSocket.exchange(port: port, Array("GET /callback HTTP/1.1\r\n\r\n".utf8)) }
            held.forEach { close($0) }
            let request = "GET /callback?code=real&state=s-3 HTTP/1.1\r\n\r\n"
            // The held connections' threads end as their peers close: retry while all are busy.
            let answer = try await onOwnThread {
                var answer = ""
                for _ in 0..<50 {
                    answer = try RawSocket.exchange(port: port, Array(request.utf8))
                    if Self.statusLine(answer) != "HTTP/1.1 503 Service Unavailable" { break }
                    Thread.sleep(forTimeInterval: 0.1)
                }
                return answer
            }
            statuses.set([Self.statusLine(refused), Self.statusLine(answer)])
        }
        let prepared = try await browser.prepareRedirect(to: URL(string: "http://127.0.0.1/callback")!)
        let redirect = try await browser.authorize(url: try Self.authorization(for: prepared, state: "s-3"), redirectURI: prepared)
        #expect(statuses.value == ["HTTP/1.1 503 Service Unavailable", "HTTP/1.1 200 OK"])
        #expect(redirect.query == "code=real&state=s-3")
    }
}
#endif
