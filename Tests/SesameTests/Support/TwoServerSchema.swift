import Foundation
import HTTPTypes
import OpenAPIRuntime
@_spi(Generated) @testable import Sesame
import SesameTestSupport
@_spi(Generated) import SesameDescription

/// The test back-end with its token endpoints on an authorization server of their own
/// (`https://idp.test`), a browser method and revocation at sign-out.
enum TwoServerSchema: SDKSchema {
    typealias Details = TestDetails
    typealias ServerError = TestServerError
    typealias Event = TestEvent

    static let idp = URL(string: "https://idp.test")!
    static let token = RequestDescription(
        name: "token", method: .post, path: "/oauth/token", authenticated: false, encoding: .form,
        clientAuthentication: .basic, server: .authorization)
    static let revoke = RevocationDescription(
        request: RequestDescription(
            name: "revoke", method: .post, path: "/oauth/revoke", authenticated: false, encoding: .form,
            clientAuthentication: .basic, server: .authorization),
        fields: [
            TemplateField("token", .variable(.refreshToken)), TemplateField("token_type_hint", .literal(.string("refresh_token"))),
        ])
    static let browser = AuthenticationMethodDescription(
        name: "oauth2",
        steps: [
            AuthenticationStepDescription(
                name: "authenticate", request: token,
                body: [
                    TemplateField("grant_type", .literal(.string("authorization_code"))),
                    TemplateField("code", .variable(.authorizationCode)), TemplateField("redirect_uri", .variable(.redirectURI)),
                    TemplateField("code_verifier", .variable(.codeVerifier)),
                ],
                browser: BrowserAuthorization(
                    request: RequestDescription(
                        name: "oauth2.authorize", method: .get, path: "/oauth/authorize", authenticated: false, server: .authorization),
                    redirectURI: "com.example.app://oauth/callback", parameters: [TemplateField("scope", .variable(.parameter("scope")))]))
        ])
    /// The password grant sent to the API's origin with client authentication: refused.
    static let passwordToAPI = AuthenticationMethodDescription(
        name: "password",
        steps: [
            AuthenticationStepDescription(
                name: "authenticate",
                request: RequestDescription(
                    name: "token", method: .post, path: "/oauth/token", authenticated: false, encoding: .form,
                    clientAuthentication: .basic),
                body: [TemplateField("grant_type", .literal(.string("password")))])
        ])

    static var description: SDKDescription {
        var description = TestRequests.description()
        description.authorizationBaseURL = idp
        description.credential.refresh?.request = token
        description.lifecycle.revocation = revoke
        return description
    }
    static func userID(of details: TestDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> TestServerError { TestServerError(response: response) }
}

/// A method of ``TwoServerSchema`` with its arguments.
struct TwoServerMethod: SingleStepAuthenticationMethod {
    var methodDescription: AuthenticationMethodDescription
    var arguments: [String: JSONValue]
    var description: String { methodDescription.name }

    static let password = TwoServerMethod(
        methodDescription: AuthenticationMethodDescription(
            name: "password",
            steps: [
                AuthenticationStepDescription(
                    name: "authenticate", request: TwoServerSchema.token,
                    body: [
                        TemplateField("grant_type", .literal(.string("password"))),
                        TemplateField("username", .variable(.parameter("username"))),
                        TemplateField("password", .variable(.parameter("password"))),
                    ])
            ]), arguments: ["username": .string("ada"), "password": .string("secret")])
    static let oauth2 = TwoServerMethod(methodDescription: TwoServerSchema.browser, arguments: ["scope": .string("profile")])
    static let passwordToAPI = TwoServerMethod(methodDescription: TwoServerSchema.passwordToAPI, arguments: [:])
}

/// A transport for ``TwoServerSchema``: it records every request with its full URL, plays
/// the authorization server at `https://idp.test` (its token endpoint answered by the fake
/// back-end, an authorization code exchanged for a password grant once its PKCE verifier
/// checks out; `/oauth/revoke` answered with `revokeStatus`), and sends the rest to the
/// fake back-end as the API.
actor TwoServerTransport: ClientTransport {
    let backEnd: FakeBackEnd
    private(set) var sent: [RoutingTransport.Sent] = []
    /// The code the fake authorization server issued, with its challenge.
    private var codes: [String: String] = [:]
    var revokeStatus = 200
    /// The `id_token` the code exchange answers besides the tokens; nil answers none.
    private var idToken: String?
    /// The `id_token` a refresh answers; nil answers none.
    private var refreshIDToken: String?
    /// What `GET /userinfo` on the authorization server answers (OpenID Connect Core §5.3).
    private var userInfo = #"{"sub":"ada","name":"Ada"}"#
    /// The parameters of each pushed authorization request (RFC 9126), by the `request_uri`
    /// `POST /oauth/par` answered; ``parAnswer`` replaces its answer when set.
    private(set) var pushedRequests: [String: [String: String]] = [:]
    var parAnswer: (status: Int, body: String)?
    func setPARAnswer(_ answer: (status: Int, body: String)?) { parAnswer = answer }

    init(backEnd: FakeBackEnd = FakeBackEnd()) {
        self.backEnd = backEnd
    }

    func setRevokeStatus(_ status: Int) { revokeStatus = status }
    func setUserInfo(_ body: String) { userInfo = body }
    func setIDToken(_ token: String?, onRefresh: String? = nil) {
        idToken = token
        refreshIDToken = onRefresh
    }

    /// Issues a code for `challenge`, as the login page would after the user signed in.
    func issueCode(challenge: String) -> String {
        let code = "code-\(codes.count + 1)"
        codes[code] = challenge
        return code
    }

    nonisolated func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var data = Data()
        if let body { data = try await Data(collecting: body, upTo: 1 << 20) }
        let url = RedirectFollower.url(of: request, baseURL: baseURL)?.absoluteString ?? "?"
        let sent = RoutingTransport.Sent(
            method: request.method, url: url, headerFields: request.headerFields, body: String(decoding: data, as: UTF8.self))
        return try await route(sent, request: request)
    }

    private func route(_ sent: RoutingTransport.Sent, request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody?) {
        self.sent.append(sent)
        let api = URL(string: "https://auth.test")!
        if sent.url.hasPrefix("https://idp.test/") {
            switch sent.path {
            case "/oauth/revoke":
                return (HTTPResponse(status: .init(code: revokeStatus)), nil)
            case "/userinfo":
                return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(userInfo))
            case "/oauth/par":
                if let parAnswer {
                    return (
                        HTTPResponse(status: .init(code: parAnswer.status), headerFields: [.contentType: "application/json"]),
                        HTTPBody(parAnswer.body)
                    )
                }
                let requestURI = "urn:ietf:params:oauth:request_uri:\(pushedRequests.count + 1)"
                pushedRequests[requestURI] = formFields(sent.body)
                return (
                    HTTPResponse(status: .created, headerFields: [.contentType: "application/json"]),
                    HTTPBody(#"{"request_uri":"\#(requestURI)","expires_in":60}"#)
                )
            case "/oauth/token":
                var form = formFields(sent.body)
                let exchangesCode = form["grant_type"] == "authorization_code"
                if exchangesCode {
                    guard let code = form["code"], let challenge = codes.removeValue(forKey: code),
                        let verifier = form["code_verifier"], PKCE(verifier: verifier).challenge == challenge
                    else {
                        return (
                            HTTPResponse(status: .badRequest, headerFields: [.contentType: "application/json"]),
                            HTTPBody(#"{"error":"invalid_grant"}"#)
                        )
                    }
                    // The client's identity, if the body names it, goes on to the back-end.
                    form = ["grant_type": "password", "username": "ada", "password": "secret", "client_id": form["client_id"]]
                        .compactMapValues { $0 }
                }
                let text = form.map { "\(FormField.encode($0.key))=\(FormField.encode($0.value))" }.joined(separator: "&")
                let (response, body) = try await backEnd.send(request, body: HTTPBody(text), baseURL: api, operationID: "token")
                let answered = exchangesCode ? idToken : form["grant_type"] == "refresh_token" ? refreshIDToken : nil
                guard let idToken = answered, let body else { return (response, body) }
                let data = try await Data(collecting: body, upTo: 1 << 20)
                guard var json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return (response, HTTPBody(data)) }
                json["id_token"] = idToken
                return (response, HTTPBody(try JSONSerialization.data(withJSONObject: json)))
            default:
                return (HTTPResponse(status: .notFound), nil)
            }
        }
        guard sent.url.hasPrefix("https://auth.test/") else { return (HTTPResponse(status: .notFound), nil) }
        return try await backEnd.send(request, body: sent.body.isEmpty ? nil : HTTPBody(sent.body), baseURL: api, operationID: "api")
    }
}

/// A browser that answers with what `answer` makes of the authorization URL, as a user
/// agent would after the login page; ``BrowserSignInError/cancelled`` when it returns nil.
struct ScriptedBrowser: Browser {
    let answer: @Sendable (URL) async -> URL?

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        guard let callback = await answer(url) else { throw BrowserSignInError.cancelled }
        return callback
    }
}
