import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import ReferenceServer
import Testing

/// Injected failures whose body is given byte for byte (`rawBytes`): bytes that are not
/// UTF-8, and bodies larger than the control API's 1 MiB request limit, sent as they are.
@Suite struct MalformedInjectionTests {
    /// `{"` 0xFF 0xFE 0xC3 0x28 `"}`: no UTF-8 text has these bytes.
    static let invalidUTF8: [UInt8] = [0x7B, 0x22, 0xFF, 0xFE, 0xC3, 0x28, 0x22, 0x7D]

    @Test func rawBytesGivenInBase64OverTheControlAPIAreSentByteForByte() async throws {
        try await Harness.run { h in
            let rule = #"{"path":"/me","method":"GET","status":200,"rawBytes":"eyL//sMoIn0=","contentType":"application/json"}"#
            #expect(try await h.sendJSON(.post, "/_control/failures", rule).status == .created)
            #expect(await h.state.pendingFailures().first?.rawBytes == Data(Self.invalidUTF8))

            let (status, headers, bytes) = try await Self.fetch(.get, "/me", from: h)

            #expect(status == .ok)
            #expect(headers[.contentType] == "application/json")
            #expect(bytes == Self.invalidUTF8)
            #expect(await h.state.pendingFailures().isEmpty)
        }
    }

    @Test func rawBytesLargerThanTheControlRequestLimitAreSentWhole() async throws {
        try await Harness.run { h in
            let body = Data(#"{"padding":""#.utf8) + Data(repeating: UInt8(ascii: "x"), count: 10_000_000) + Data(#""}"#.utf8)
            await h.state.injectFailure(InjectedFailure(path: "/status", status: 200, rawBytes: body))

            let (status, headers, bytes) = try await Self.fetch(.get, "/status", from: h)

            #expect(status == .ok)
            #expect(headers[.contentType] == "application/octet-stream")
            #expect(bytes.count == body.count)
            #expect(Data(bytes) == body)
        }
    }

    @Test func rawBodyWinsOverRawBytesAndBodyOverBoth() async throws {
        try await Harness.run { h in
            await h.state.injectFailure(InjectedFailure(path: "/status", status: 500, rawBody: "text", rawBytes: Data([0xFF])))
            await h.state.injectFailure(InjectedFailure(path: "/status", status: 500, body: .object([:]), rawBytes: Data([0xFF])))

            let first = try await Self.fetch(.get, "/status", from: h)
            let second = try await Self.fetch(.get, "/status", from: h)

            #expect(first.bytes == Array("text".utf8))
            #expect(second.bytes == Array("{}".utf8))
        }
    }

    @Test func aRuleWithRawBytesThatAreNotBase64IsRefused() async throws {
        try await Harness.run { h in
            let refused = try await h.sendJSON(.post, "/_control/failures", #"{"path":"/me","rawBytes":"not base64!"}"#)
            #expect(refused.status == .badRequest)
            #expect(await h.state.pendingFailures().isEmpty)
        }
    }

    /// Sends a request and reads the answer's body as bytes (`Harness.send` reads it as text).
    private static func fetch(
        _ method: HTTPRequest.Method, _ path: String, from h: Harness
    ) async throws
        -> (status: HTTPResponse.Status, headers: HTTPFields, bytes: [UInt8])
    {
        let response = try await TestClient.withClient(
            host: h.endpoint.host, port: h.endpoint.port,
            configuration: .init(timeout: .seconds(15))
        ) { client in
            try await client.execute(TestClient.Request(path, method: method, headers: [:], body: nil))
        }
        return (response.status, response.headers, response.body.map { Array($0.readableBytesView) } ?? [])
    }
}
