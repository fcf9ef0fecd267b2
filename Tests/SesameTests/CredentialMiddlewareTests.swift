import Foundation
import HTTPTypes
import OpenAPIRuntime
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

@Suite struct CredentialScopeTests {
    func request(_ path: String = "/me", authority: String? = nil) -> HTTPRequest {
        HTTPRequest(method: .get, scheme: nil, authority: authority, path: path)
    }

    @Test(arguments: [
        ("https://auth.test", "https://auth.test/api", true),
        ("https://auth.test", "https://auth.test:443", true),
        ("https://auth.test", "https://AUTH.test", true),
        ("https://auth.test", "https://auth.test:8443", false),
        ("https://auth.test", "https://evil.test", false),
        ("https://auth.test", "http://auth.test", false),
        ("http://auth.test", "http://auth.test", false),  // plain http outside loopback: never
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080", true),
        ("http://localhost:8080", "http://localhost:8080", true),
        ("http://[::1]:8080", "http://[::1]:8080", true),
        ("http://127.0.0.1:8080", "http://127.0.0.1:9090", false),
    ])
    func credentialGoesOnlyToTheBaseURLsOrigin(base: String, target: String, permitted: Bool) {
        let scope = CredentialScope(baseURL: URL(string: base)!)
        #expect(scope.permits(request(), baseURL: URL(string: target)!) == permitted)
    }

    @Test func aPathOrAuthorityNamingAnotherHostIsRefused() {
        let scope = CredentialScope(baseURL: URL(string: "https://auth.test")!)
        let base = URL(string: "https://auth.test")!
        #expect(!scope.permits(request("//evil.test/me"), baseURL: base))
        #expect(!scope.permits(request(authority: "evil.test"), baseURL: base))
        #expect(scope.permits(request(authority: "auth.test:443"), baseURL: base))
    }
}

@Suite struct CredentialMiddlewareTests {
    /// Sends a request through the service's public middleware to `base` and returns the
    /// Authorization header the next stage saw.
    func authorizationSent(to base: String, env: TestEnvironment<TestSchema>) async throws -> String? {
        let middleware = env.service.credentialMiddleware
        let seen = LogCapture()
        _ = try await middleware.intercept(
            HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x"), body: nil,
            baseURL: URL(string: base)!, operationID: "x"
        ) { request, _, _ in
            seen.append(request.headerFields[.authorization] ?? "none")
            return (HTTPResponse(status: .ok), nil)
        }
        return seen.text
    }

    @Test func appliesTheCredentialToTheBackEndsOriginOnly() async throws {
        let env = TestEnvironment()
        #expect(try await authorizationSent(to: "https://auth.test", env: env) == "none")  // no session yet
        _ = try await env.service.authenticate(with: TestSingleStepMethod.guest)
        #expect(try await authorizationSent(to: "https://auth.test/v2", env: env) == "Bearer at-1")
        #expect(try await authorizationSent(to: "https://cdn.test", env: env) == "none")
        #expect(try await authorizationSent(to: "http://auth.test", env: env) == "none")
    }
}

@Suite struct ResponseParsingTests {
    let catalogue = TestSchema.description.errors

    @Test(
        arguments: [
            ("Bearer realm=\"x\", error=\"invalid_token\", error_description=\"expired\"", "invalid_token"),
            ("Basic realm=\"a\", Bearer error=invalid_token", "invalid_token"),
            ("Bearer realm=\"a, error=fake\"", nil),
            ("Basic realm=\"a\", error=\"invalid_token\"", nil),
        ] as [(String, String?)])
    func bearerChallengeError(header: String, error: String?) {
        #expect(BearerChallenge.error(inHeaderValue: header) == error)
    }

    @Test func rejectionNeedsEveryConditionOfTheRule() {
        let matcher = RejectionMatcher(
            rule: RejectionRule(status: 401, wwwAuthenticateError: "invalid_token", bodyCode: "token_dead"),
            catalogue: catalogue)
        let challenge: HTTPFields = [.wwwAuthenticate: "Bearer error=\"invalid_token\""]
        let body = Data(#"{"error":"token_dead"}"#.utf8)
        #expect(matcher.matches(status: 401, headerFields: challenge, body: body))
        #expect(!matcher.matches(status: 403, headerFields: challenge, body: body))
        #expect(!matcher.matches(status: 401, headerFields: [:], body: body))
        #expect(!matcher.matches(status: 401, headerFields: challenge, body: Data()))
    }

    @Test func errorResponsesAreReadThroughTheCatalogue() throws {
        let json: HTTPFields = [.contentType: "application/json"]
        let known = ServerErrorParser.parse(
            status: 429, headerFields: json, body: Data(#"{"error":"rate_limited","error_description":"slow down"}"#.utf8),
            catalogue: catalogue)
        #expect(known == ServerErrorResponse(status: 429, code: "rate_limited", message: "slow down", category: .transient))
        let unknown = ServerErrorParser.parse(status: 502, headerFields: json, body: Data(#"{"error":"proxy"}"#.utf8), catalogue: catalogue)
        #expect(unknown.category == .transient)
        let html = ServerErrorParser.parse(
            status: 500, headerFields: [.contentType: "text/html"], body: Data("<h1>oops</h1>".utf8), catalogue: catalogue)
        #expect(html == ServerErrorResponse(status: 500, code: nil, message: nil, category: .server))
        let challenge = ServerErrorParser.parse(
            status: 401, headerFields: [.wwwAuthenticate: "Bearer error=\"invalid_token\""], body: Data(), catalogue: catalogue)
        #expect(challenge.code == "invalid_token" && challenge.category == .credentialRejected)
        let truncated = ServerErrorParser.parse(status: 503, headerFields: json, body: Data(#"{"error":"inv"#.utf8), catalogue: catalogue)
        #expect(truncated == ServerErrorResponse(status: 503, code: nil, message: nil, category: .transient))
    }

    @Test func tokenResponsesAreReadWithTheSchemasFieldNames() throws {
        let now = Date(timeIntervalSince1970: 1000)
        let credential = try TokenResponseReader.credential(
            from: .object(["access_token": .string("a"), "refresh_token": .string("r"), "expires_in": .integer(60)]),
            description: TestSchema.description.credential, operation: "token", now: now)
        #expect(credential == Credential(accessToken: "a", refreshToken: "r", expiresAt: now.addingTimeInterval(60)))
        #expect(throws: SesameError.decoding(operation: "token", reason: "$.access_token: expected a non-empty string")) {
            try TokenResponseReader.credential(
                from: .object(["token": .string("a")]), description: TestSchema.description.credential,
                operation: "token", now: now)
        }
    }

    @Test func clientAuthenticationFollowsRFC6749() throws {
        let client = ClientCredentials(clientID: "my app:1", clientSecret: "p@ss")
        let header = try RequestFactory.basicAuthorization(client, operation: "token")
        let decoded = String(decoding: Data(base64Encoded: String(header.dropFirst("Basic ".count)))!, as: UTF8.self)
        #expect(decoded == "my+app%3A1:p%40ss")
        let post = RequestDescription(
            name: "token", method: .post, path: "/t", authenticated: false, encoding: .form, clientAuthentication: .post)
        let body = try RequestFactory.body(
            fields: [TemplateField("grant_type", .literal(.string("refresh_token")))], for: post, client: client,
            naming: .onlyWithPost
        ) { _ in nil }
        #expect(
            body
                == .form([
                    FormField(name: "grant_type", value: "refresh_token"), FormField(name: "client_id", value: "my app:1"),
                    FormField(name: "client_secret", value: "p@ss"),
                ]))
        #expect(throws: SesameError.self) { try RequestFactory.basicAuthorization(nil, operation: "token") }
    }
}
