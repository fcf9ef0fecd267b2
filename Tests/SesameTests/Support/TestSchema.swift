import Foundation
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// The details the test back-end returns.
struct TestDetails: Codable, Hashable, Sendable {
    var uid: String
    var provider: String
    var displayName: String?
}

/// The typed server error of the test schema: the response as it was read.
struct TestServerError: Error, Hashable, Sendable {
    var response: ServerErrorResponse
}

/// The typed events of the test schema.
enum TestEvent: ServerEvent {
    case sessionRevoked(reason: String)
    case profileUpdated(TestDetails)
    case unknown(wireName: String, data: Data)

    init(wireName: String, data: Data) {
        switch wireName {
        case "session.revoked":
            let reason = (try? JSONDecoder().decode(JSONValue.self, from: data))?["reason"]?.stringValue
            self = reason.map { .sessionRevoked(reason: $0) } ?? .unknown(wireName: wireName, data: data)
        case "profile.updated":
            self =
                (try? JSONDecoder().decode(TestDetails.self, from: data)).map { .profileUpdated($0) }
                ?? .unknown(wireName: wireName, data: data)
        default:
            self = .unknown(wireName: wireName, data: data)
        }
    }

    var wireName: String {
        switch self {
        case .sessionRevoked: return "session.revoked"
        case .profileUpdated: return "profile.updated"
        case .unknown(let wireName, _): return wireName
        }
    }
}

/// Requests and methods of the test back-end, written as the generator would.
enum TestRequests {
    static let token = RequestDescription(
        name: "token", method: .post, path: "/oauth/token", authenticated: false,
        encoding: .form, clientAuthentication: .basic, server: .authorization)
    static let me = RequestDescription(name: "me", method: .get, path: "/me")
    static let logout = RequestDescription(name: "logout", method: .post, path: "/auth/logout")
    static let detachIdentity = RequestDescription(
        name: "detachIdentity", method: .delete, path: "/identities/{provider}",
        freshAuthentication: .seconds(300))
    static let destroyAccount = RequestDescription(
        name: "destroyAccount", method: .delete, path: "/account",
        freshAuthentication: .seconds(300))
    static let notes = RequestDescription(name: "listNotes", method: .get, path: "/notes")
    static let status = RequestDescription(name: "serverStatus", method: .get, path: "/status", authenticated: false)
    static let events = RequestDescription(name: "events", method: .get, path: "/events")

    static let guest = AuthenticationMethodDescription(
        name: "guest",
        steps: [
            AuthenticationStepDescription(
                name: "guest", request: RequestDescription(name: "guest", method: .post, path: "/auth/guest", authenticated: false),
                body: [])
        ])
    static let `internal` = AuthenticationMethodDescription(
        name: "internal",
        steps: [
            AuthenticationStepDescription(
                name: "initialize",
                request: RequestDescription(
                    name: "internal.initialize", method: .post, path: "/auth/internal/challenge", authenticated: false),
                body: [TemplateField("identifier", .variable(.parameter("identifier")))]),
            AuthenticationStepDescription(
                name: "continue",
                request: RequestDescription(name: "internal.continue", method: .post, path: "/auth/internal/verify", authenticated: false),
                body: [
                    TemplateField("challengeId", .variable(.stepOutput(step: "initialize", path: ["challengeId"]))),
                    TemplateField("code", .variable(.parameter("code"))),
                ],
                needs: ["code"]),
        ])
    static let password = AuthenticationMethodDescription(
        name: "password",
        steps: [
            AuthenticationStepDescription(
                name: "password", request: token,
                body: [
                    TemplateField("grant_type", .literal(.string("password"))),
                    TemplateField("username", .variable(.parameter("username"))),
                    TemplateField("password", .variable(.parameter("password"))),
                ])
        ])

    static func description(refresh: Bool = true, maxRefreshes: Int = 5) -> SDKDescription {
        SDKDescription(
            name: "TestSDK", baseURL: URL(string: "https://auth.test")!,
            credential: CredentialDescription(
                accessTokenField: "access_token", refreshTokenField: "refresh_token", expiresInField: "expires_in",
                header: "Authorization", format: .interpolation([.text("Bearer "), .variable(.accessToken)]),
                refresh: refresh
                    ? RefreshDescription(
                        request: token,
                        fields: [
                            TemplateField("grant_type", .literal(.string("refresh_token"))),
                            TemplateField("refresh_token", .variable(.refreshToken)),
                        ], leeway: .seconds(60), maxRefreshes: maxRefreshes, window: .seconds(30))
                    : nil,
                rejection: RejectionRule(status: 401, wwwAuthenticateError: "invalid_token"),
                details: me, userIDField: "uid"),
            errors: ErrorCatalogue(
                codeField: "error", messageField: "error_description",
                codes: [
                    "invalid_grant": .credentialRejected, "invalid_token": .credentialRejected, "invalid_code": .client,
                    "token_too_old": .reauthenticationRequired, "rate_limited": .transient, "unavailable": .transient,
                ]),
            events: EventCatalogue(stream: events, invalidating: ["session.revoked"]),
            lifecycle: LifecycleDescription(signOut: logout, detachIdentity: detachIdentity, destroyAccount: destroyAccount))
    }
}

/// The test schema, with a refresh.
enum TestSchema: SDKSchema {
    typealias Details = TestDetails
    typealias ServerError = TestServerError
    typealias Event = TestEvent
    static var description: SDKDescription { TestRequests.description() }
    static func userID(of details: TestDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> TestServerError { TestServerError(response: response) }
}

/// The same back-end without a refresh request.
enum NoRefreshSchema: SDKSchema {
    typealias Details = TestDetails
    typealias ServerError = TestServerError
    typealias Event = TestEvent
    static var description: SDKDescription { TestRequests.description(refresh: false) }
    static func userID(of details: TestDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> TestServerError { TestServerError(response: response) }
}

/// Single-step methods, as the generator writes them.
enum TestSingleStepMethod: SingleStepAuthenticationMethod {
    case guest
    case password(username: String, password: String)

    var methodDescription: AuthenticationMethodDescription {
        switch self {
        case .guest: return TestRequests.guest
        case .password: return TestRequests.password
        }
    }

    var arguments: [String: JSONValue] {
        switch self {
        case .guest: return [:]
        case .password(let username, let password): return ["username": .string(username), "password": .string(password)]
        }
    }

    var description: String {
        switch self {
        case .guest: return "guest"
        case .password(let username, _): return "password(username: \(username), password: <redacted>)"
        }
    }
}

/// Multi-step methods.
enum TestMultiStepMethod: MultiStepAuthenticationMethod {
    case `internal`(identifier: String)

    var methodDescription: AuthenticationMethodDescription { TestRequests.internal }
    var arguments: [String: JSONValue] {
        switch self {
        case .internal(let identifier): return ["identifier": .string(identifier)]
        }
    }
    var description: String { "internal" }
}

/// Continuations of multi-step methods.
enum TestContinuation: AuthenticationContinuation, Equatable {
    case internalContinue(code: String)
    case wrongStep

    var methodName: String { "internal" }
    var stepName: String { self == .wrongStep ? "initialize" : "continue" }
    var values: [String: JSONValue] {
        switch self {
        case .internalContinue(let code): return ["code": .string(code)]
        case .wrongStep: return [:]
        }
    }
    var description: String { "internal.continue" }
}
