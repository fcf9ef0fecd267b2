import Foundation
import HTTPTypes
import SesameDPoP
import Testing

@Suite struct DPoPNoncesTests {
    func fields(_ nonces: String...) -> HTTPFields {
        var fields = HTTPFields()
        for nonce in nonces { fields.append(HTTPField(name: DPoPNonces.headerFieldName, value: nonce)) }
        return fields
    }

    let server = DPoPOrigin(scheme: "https", host: "server.example.com")!

    @Test func aResponsesNonceIsKeptForItsOrigin() async {
        let nonces = DPoPNonces()
        #expect(await nonces.nonce(for: server) == nil)
        #expect(await nonces.update(from: fields("eyJ7S_zG.eyJH0-Z.HX4w-7v"), of: server) == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        #expect(await nonces.nonce(for: server) == "eyJ7S_zG.eyJH0-Z.HX4w-7v")
        #expect(await nonces.update(from: fields("second"), of: server) == "second")
        #expect(await nonces.nonce(for: server) == "second")
    }

    @Test func aResponseWithoutANonceLeavesTheNonce() async {
        let nonces = DPoPNonces()
        await nonces.update(from: fields("first"), of: server)
        var other = HTTPFields()
        other[.contentType] = "application/json"
        #expect(await nonces.update(from: other, of: server) == nil)
        #expect(await nonces.nonce(for: server) == "first")
    }

    @Test(arguments: ["", "two words", "quote\"d", "back\\slash", "é", String(repeating: "n", count: 1025)])
    func aValueThatIsNoNonceIsIgnored(_ value: String) async {
        let nonces = DPoPNonces()
        await nonces.update(from: fields("first"), of: server)
        #expect(await nonces.update(from: fields(value), of: server) == nil)
        #expect(await nonces.nonce(for: server) == "first")
    }

    @Test func theLongestNonceIsKept() async {
        let nonce = String(repeating: "n", count: DPoPNonces.maximumNonceLength)
        #expect(await DPoPNonces().update(from: fields(nonce), of: server) == nonce)
    }

    @Test func ofSeveralFieldsTheLastIsKept() async {
        let nonces = DPoPNonces()
        #expect(await nonces.update(from: fields("one", "two"), of: server) == "two")
    }

    @Test func noncesAreNeverSharedAcrossOrigins() async throws {
        let nonces = DPoPNonces()
        await nonces.update(from: fields("for-the-server"), for: URL(string: "https://server.example.com/token")!)
        for url in [
            "http://server.example.com/token", "https://server.example.com:8443/token", "https://resource.example.com/token",
            "https://example.com/token", "https://server.example.com.evil.example/token",
        ] {
            #expect(await nonces.nonce(for: URL(string: url)!) == nil, "\(url)")
        }
        // The same origin, however the URL spells it.
        for url in ["https://server.example.com/other", "HTTPS://Server.Example.COM:443/", "https://server.example.com?x"] {
            #expect(await nonces.nonce(for: URL(string: url)!) == "for-the-server", "\(url)")
        }
        await nonces.update(from: fields("for-8443"), for: URL(string: "https://server.example.com:8443/")!)
        #expect(await nonces.nonce(for: URL(string: "https://server.example.com/")!) == "for-the-server")
        #expect(await nonces.nonce(for: URL(string: "https://server.example.com:8443/")!) == "for-8443")
    }

    @Test func aURLWithoutAnHTTPOriginHasNoNonce() async {
        let nonces = DPoPNonces()
        #expect(await nonces.update(from: fields("n"), for: URL(string: "ftp://server.example.com/")!) == nil)
        #expect(await nonces.nonce(for: URL(string: "ftp://server.example.com/")!) == nil)
    }

    @Test func removalForgetsOneOriginOrAll() async {
        let nonces = DPoPNonces()
        let other = DPoPOrigin(scheme: "https", host: "other.example")!
        await nonces.update(from: fields("a"), of: server)
        await nonces.update(from: fields("b"), of: other)
        await nonces.remove(for: server)
        #expect(await nonces.nonce(for: server) == nil)
        #expect(await nonces.nonce(for: other) == "b")
        await nonces.removeAll()
        #expect(await nonces.nonce(for: other) == nil)
    }

    @Test func theLeastRecentlyUpdatedOriginIsForgottenPastTheLimit() async {
        let nonces = DPoPNonces()
        let origins = (0...DPoPNonces.maximumOrigins).map { DPoPOrigin(scheme: "https", host: "h\($0).example")! }
        for origin in origins.dropLast() { await nonces.update(from: fields("n-\(origin.host)"), of: origin) }
        // The first is updated again: the second is now the least recent.
        await nonces.update(from: fields("again"), of: origins[0])
        await nonces.update(from: fields("last"), of: origins.last!)
        #expect(await nonces.nonce(for: origins[0]) == "again")
        #expect(await nonces.nonce(for: origins[1]) == nil)
        #expect(await nonces.nonce(for: origins[2]) == "n-h2.example")
        #expect(await nonces.nonce(for: origins.last!) == "last")
    }

    @Test func concurrentUpdatesOfManyOriginsKeepEachOwn() async {
        let nonces = DPoPNonces()
        let origins = (0..<32).map { DPoPOrigin(scheme: "https", host: "h\($0).example", port: 8000 + $0)! }
        await withTaskGroup(of: Void.self) { group in
            for origin in origins {
                group.addTask {
                    for round in 0..<20 { await nonces.update(from: fields("\(origin.port)-\(round)"), of: origin) }
                }
            }
        }
        for origin in origins { #expect(await nonces.nonce(for: origin) == "\(origin.port)-19") }
    }
}

@Suite struct DPoPOriginTests {
    @Test func anOriginIsNormalised() throws {
        let origin = try #require(DPoPOrigin(url: URL(string: "HTTPS://Server.Example.COM/path?q#f")!))
        #expect(origin == DPoPOrigin(scheme: "https", host: "server.example.com", port: 443))
        #expect(origin.description == "https://server.example.com:443")
        #expect(DPoPOrigin(url: URL(string: "http://a.example")!)?.port == 80)
        #expect(DPoPOrigin(url: URL(string: "http://a.example:8080")!)?.port == 8080)
        let ipv6 = try #require(DPoPOrigin(url: URL(string: "https://[::1]:8443/")!))
        #expect(ipv6.host == "::1")
        #expect(ipv6.description == "https://[::1]:8443")
        #expect(DPoPOrigin(scheme: "https", host: "[::1]", port: 8443) == ipv6)
    }

    @Test(arguments: ["ftp://a.example/", "file:///tmp/x", "/relative", "mailto:a@example.com", "https:///x"])
    func aURLWithoutAnHTTPOriginHasNone(_ url: String) {
        #expect(DPoPOrigin(url: URL(string: url)!) == nil)
    }

    @Test func anOriginNeedsAnHTTPSchemeAndAHost() {
        #expect(DPoPOrigin(scheme: "ws", host: "a.example") == nil)
        #expect(DPoPOrigin(scheme: "https", host: "") == nil)
        #expect(DPoPOrigin(scheme: "https", host: "[]") == nil)
    }
}
