import Foundation
import HTTPTypes
import OpenAPIRuntime
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

// The SesameTests target's FakeBackEnd and TestSchema cannot be imported from another test
// target; the wrapper needs far less of a back-end, so this target keeps the little it
// needs: a guest sign-in, a password sign-in that only "secret" passes, the user's details
// and sign-out.

/// The details the stub back-end returns.
struct StubDetails: Codable, Hashable, Sendable {
    var uid: String
}

/// The stub schema's typed error: the error response as it was read.
struct StubServerError: Error, Hashable, Sendable {
    var response: ServerErrorResponse
}

/// The stub schema has no server events.
struct StubEvent: ServerEvent {
    var wireName: String
    init(wireName: String, data: Data) { self.wireName = wireName }
}

enum StubSchema: SDKSchema {
    typealias Details = StubDetails
    typealias ServerError = StubServerError
    typealias Event = StubEvent

    static var description: SDKDescription {
        SDKDescription(
            name: "StubSDK", baseURL: URL(string: "https://auth.stub")!,
            credential: CredentialDescription(
                accessTokenField: "access_token", refreshTokenField: nil, expiresInField: "expires_in",
                header: "Authorization", format: .interpolation([.text("Bearer "), .variable(.accessToken)]),
                refresh: nil, rejection: RejectionRule(status: 401, wwwAuthenticateError: "invalid_token"),
                details: RequestDescription(name: "me", method: .get, path: "/me"), userIDField: "uid"),
            errors: ErrorCatalogue(
                codeField: "error", messageField: "error_description",
                codes: ["invalid_grant": .credentialRejected]),
            events: EventCatalogue(stream: nil, invalidating: []),
            lifecycle: LifecycleDescription(signOut: RequestDescription(name: "logout", method: .post, path: "/auth/logout")))
    }

    static func userID(of details: StubDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> StubServerError { StubServerError(response: response) }
}

/// The stub's sign-in methods.
enum StubMethod: SingleStepAuthenticationMethod {
    case guest
    case password(String)

    var methodDescription: AuthenticationMethodDescription {
        switch self {
        case .guest:
            return AuthenticationMethodDescription(
                name: "guest",
                steps: [
                    AuthenticationStepDescription(
                        name: "guest", request: RequestDescription(name: "guest", method: .post, path: "/auth/guest", authenticated: false),
                        body: [])
                ])
        case .password:
            return AuthenticationMethodDescription(
                name: "password",
                steps: [
                    AuthenticationStepDescription(
                        name: "password",
                        request: RequestDescription(name: "password", method: .post, path: "/auth/password", authenticated: false),
                        body: [TemplateField("password", .variable(.parameter("password")))])
                ])
        }
    }

    var arguments: [String: JSONValue] {
        switch self {
        case .guest: return [:]
        case .password(let password): return ["password": .string(password)]
        }
    }

    var description: String { self == .guest ? "guest" : "password(<redacted>)" }
}

extension StubMethod: Equatable {}

/// A back-end in memory: `guest` signs in as `u1`, `password` as `u2` with "secret" only.
struct StubBackEnd: ClientTransport {
    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var data = Data()
        if let body { data = try await Data(collecting: body, upTo: 1 << 16) }
        switch (request.method, request.path ?? "") {
        case (.post, "/auth/guest"):
            return json(#"{"access_token":"at-u1","expires_in":3600}"#)
        case (.post, "/auth/password"):
            let fields = try JSONDecoder().decode([String: String].self, from: data)
            guard fields["password"] == "secret" else {
                return json(#"{"error":"invalid_grant","error_description":"wrong password"}"#, status: .badRequest)
            }
            return json(#"{"access_token":"at-u2","expires_in":3600}"#)
        case (.get, "/me"):
            switch request.headerFields[.authorization] {
            case "Bearer at-u1": return json(#"{"uid":"u1"}"#)
            case "Bearer at-u2": return json(#"{"uid":"u2"}"#)
            default: return json(#"{"error":"invalid_token"}"#, status: .unauthorized)
            }
        case (.post, "/auth/logout"):
            return (HTTPResponse(status: .noContent), nil)
        default:
            return json(#"{"error":"not_found"}"#, status: .notFound)
        }
    }

    private func json(_ text: String, status: HTTPResponse.Status = .ok) -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: status, headerFields: [.contentType: "application/json"]), HTTPBody(text))
    }
}

extension AuthenticationService where Schema == StubSchema {
    /// A service over the stub back-end.
    static func stub() -> AuthenticationService<StubSchema> {
        AuthenticationService(configuration: .init(transport: StubBackEnd(), receivesServerEvents: false))
    }
}

/// Waits until `condition` holds, polling every millisecond for at most two seconds.
func eventually(_ condition: @Sendable () async -> Bool) async -> Bool {
    for _ in 0..<2000 {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return false
}
