import Foundation
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription
@_spi(Generated) @testable import Sesame

/// What the default transport (``StreamingURLSessionTransport``) makes of a 401 with an
/// HTTP authentication challenge (`WWW-Authenticate: Basic`), as a token endpoint sends with
/// `invalid_client` (RFC 6749 §5.2), over loopback: docs/runtime.md, "Transports on Linux",
/// says what happens, and this test keeps it true (on Linux it fails at once with URLError
/// -999; on Apple platforms the 401 comes back typed).
@Suite struct BasicChallengeTests {
    @Test func aBasicChallengeOnTheTokenEndpointFailsAtOnce() async throws {
        let body = #"{"error":"invalid_client","error_description":"unknown client"}"#
        let server = try LoopbackServer { request, connection in
            connection.writeHead(
                status: "401 Unauthorized",
                [
                    ("Content-Type", "application/json"), ("WWW-Authenticate", #"Basic realm="sesame""#),
                    ("Content-Length", "\(body.utf8.count)"),
                ])
            connection.write(body)
        }
        defer { server.stop() }
        let service = AuthenticationService<TestSchema>(
            configuration: .init(
                baseURL: server.baseURL, client: ClientCredentials(clientID: "app", clientSecret: "wrong"),
                transport: StreamingURLSessionTransport(), receivesServerEvents: false, requestTimeout: .seconds(20)))
        let error: any Error
        do {
            _ = try await service.authenticate(with: TestSingleStepMethod.password(username: "ada", password: "secret"))
            Issue.record("the sign-in succeeded")
            return
        } catch let caught {
            error = caught
        }
        #if canImport(FoundationNetworking)
        // FoundationNetworking asks the delegate for a credential instead of handing back the
        // 401 (swift-corelibs-foundation #5456); the transport declines, and the call fails at
        // once (well before the 20 s deadline) with URLError -999: the server's error is lost.
        #expect(error as? SesameError == .transport(operation: "token", reason: "URLError -999"), "got \(error)")
        #else
        let typed = try #require(error as? TestServerError, "got \(error)")
        #expect(typed.response.status == 401)
        #expect(typed.response.code == "invalid_client")
        #endif
        #expect(await service.state == .unauthenticated)
    }
}
