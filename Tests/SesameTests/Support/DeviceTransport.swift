import Foundation
import HTTPTypes
import OpenAPIRuntime
@_spi(Generated) @testable import Sesame
import SesameTestSupport
@_spi(Generated) import SesameDescription

/// A device sign-in method of ``TwoServerSchema`` (RFC 8628): its device authorization
/// request and the polled token request on the authorization server.
enum DeviceMethod {
    static let description = AuthenticationMethodDescription(
        name: "device",
        steps: [
            AuthenticationStepDescription(
                name: "authenticate",
                needs: [],
                kind: .deviceAuthorization(
                    DeviceAuthorization(
                        request: RequestDescription(
                            name: "device.authorize", method: .post, path: "/oauth/device_authorization", authenticated: false,
                            encoding: .form, clientAuthentication: .basic, server: .authorization),
                        parameters: [TemplateField("scope", .variable(.parameter("scope")))])),
                request: TwoServerSchema.token,
                body: [
                    TemplateField("grant_type", .literal(.string(DeviceAuthorization.grantType))),
                    TemplateField("device_code", .variable(.deviceCode)),
                ])
        ])
    static let method = TwoServerMethod(methodDescription: description, arguments: ["scope": .string("profile")])
}

/// The authorization server of a device sign-in at `https://idp.test`, scripted: the device
/// authorization endpoint answers `authorization` (or `deviceStatus` with an error), the
/// token endpoint answers the device code grant with the next of `answers` (an OAuth error
/// code, or `approve`, which the fake back-end answers as a password grant for ada).
actor DeviceTransport: ClientTransport {
    let backEnd = FakeBackEnd()
    private(set) var sent: [RoutingTransport.Sent] = []
    var authorization =
        #"{"device_code":"dev-secret-1","user_code":"WDJB-MJHT","verification_uri":"https://idp.test/device","verification_uri_complete":"https://idp.test/device?user_code=WDJB-MJHT","expires_in":600,"interval":5}"#
    private var answers: [String]

    init(answers: [String]) {
        self.answers = answers
    }

    func setAuthorization(_ json: String) { authorization = json }

    /// Run as each poll arrives, before it is answered (a test holds a poll on the wire there).
    private var onPoll: (@Sendable () async throws -> Void)?
    func setOnPoll(_ body: @escaping @Sendable () async throws -> Void) { onPoll = body }

    /// The token requests sent so far.
    var polls: [RoutingTransport.Sent] { sent.filter { $0.path == "/oauth/token" } }

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

    private func json(_ status: HTTPResponse.Status, _ text: String) -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: status, headerFields: [.contentType: "application/json"]), HTTPBody(text))
    }

    private func route(_ sent: RoutingTransport.Sent, request: HTTPRequest) async throws -> (HTTPResponse, HTTPBody?) {
        self.sent.append(sent)
        let api = URL(string: "https://auth.test")!
        switch sent.url {
        case "https://idp.test/oauth/device_authorization":
            return json(.ok, authorization)
        case "https://idp.test/oauth/token":
            let form = formFields(sent.body)
            if form["grant_type"] == "password" {
                return try await backEnd.send(request, body: HTTPBody(sent.body), baseURL: api, operationID: "token")
            }
            guard form["grant_type"] == DeviceAuthorization.grantType, form["device_code"] == "dev-secret-1" else {
                return json(.badRequest, #"{"error":"invalid_grant"}"#)
            }
            try await onPoll?()
            let answer = answers.isEmpty ? "authorization_pending" : answers.removeFirst()
            guard answer == "approve" else { return json(.badRequest, #"{"error":"\#(answer)"}"#) }
            return try await backEnd.send(
                request, body: HTTPBody("grant_type=password&username=ada&password=secret"), baseURL: api, operationID: "token")
        default:
            guard sent.url.hasPrefix("https://auth.test/") else { return (HTTPResponse(status: .notFound), nil) }
            return try await backEnd.send(request, body: nil, baseURL: api, operationID: "api")
        }
    }
}
