import Foundation
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription
@_spi(Generated) @testable import Sesame

/// Every path parameter stays one segment (RFC 3986 §3.3), checked on the wire: each value
/// goes to a raw loopback server (`LoopbackServer`), which records the request target as it
/// arrived. `DELETE /identities/{provider}` with `..` used to reach the server as `DELETE /`,
/// with the bearer token.
@Suite struct PathParameterTests {
    static let cases: [(String, String)] = [
        ("/", "%2F"), ("?", "%3F"), ("#", "%23"), ("%", "%25"), (".", "%2E"), ("..", "%2E%2E"),
        ("...", "%2E%2E%2E"), ("../../admin", "..%2F..%2Fadmin"), ("a/../b", "a%2F..%2Fb"),
        ("%2e%2e", "%252e%252e"), ("a b", "a%20b"), ("google", "google"), ("é", "%C3%A9"),
        ("a?b#c", "a%3Fb%23c"), ("x;y=z", "x%3By%3Dz"),
    ]

    @Test(arguments: cases)
    func eachValueReachesTheServerAsOneSegment(value: String, target: String) async throws {
        let server = try HostileServerTests.server { _, connection in
            HostileServerTests.json("{}", on: connection)
        }
        defer { server.stop() }
        let service = try await HostileServerTests.signedIn(server, transport: StreamingURLSessionTransport())
        let response = try await service.perform(
            OperationRequest(TestRequests.detachIdentity, pathParameters: ["provider": value]))
        #expect(response.status == 200)
        let sent = try #require(server.requests.last)
        #expect(sent.method == "DELETE")
        #expect(sent.target == "/identities/" + target)
    }

    /// An empty value would leave an empty segment (`/identities/`): refused before sending.
    @Test func anEmptyValueIsRefusedAndNothingIsSent() async throws {
        let server = try HostileServerTests.server { _, connection in
            HostileServerTests.json("{}", on: connection)
        }
        defer { server.stop() }
        let service = try await HostileServerTests.signedIn(server, transport: StreamingURLSessionTransport())
        let before = server.requests.count
        await #expect(throws: SesameError.encoding(reason: "no value for {provider}")) {
            try await service.perform(OperationRequest(TestRequests.detachIdentity, pathParameters: ["provider": ""]))
        }
        #expect(server.requests.count == before)
    }

    @Test func theEncodingKeepsUnreservedCharactersAndColons() {
        #expect(OperationRequest.encodedSegment("aZ09-._~:") == "aZ09-._~:")
        #expect(OperationRequest.encodedSegment("@!$&'()*+,;=[]") == "%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%5B%5D")
    }
}
