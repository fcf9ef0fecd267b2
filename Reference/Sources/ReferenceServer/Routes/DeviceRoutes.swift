import Foundation
import HTTPTypes
import Hummingbird

/// The device authorization grant (RFC 8628) on the authorization server: the device
/// authorization endpoint, the approval page the user opens on another device, and (in
/// ``ControlRoutes``) `POST /_control/device` for tests to approve or deny a user code. The
/// token endpoint's device code grant is in ``AuthorizationServerRoutes``.
struct DeviceRoutes {
    let state: ReferenceServerState
    let configuration: ReferenceServer.Configuration
    /// Authenticates the client as the token endpoint does.
    let authenticatedClient: @Sendable (Request, [String: String]) async throws -> ReferenceServer.Client

    func register(on router: Router<ServerRequestContext>) {
        router.post("/oauth/device_authorization") { request, _ in
            let form = try await RequestDecoding.form(from: request)
            let client = try await authenticatedClient(request, form)
            var answer = await state.authorizeDevice(clientID: client.id, scope: form["scope"])
            let origin = "http://\(request.head.authority ?? "localhost")"
            answer.verification_uri = origin + "/device"
            answer.verification_uri_complete = origin + "/device?user_code=" + FormURLEncoding.encode(answer.user_code)
            var headers = HTTPFields()
            headers[.cacheControl] = "no-store"
            return try Responses.json(answer, headers: headers)
        }
        router.get("/device") { request, _ in
            Self.page(userCode: request.uri.queryParameters["user_code"].map(String.init))
        }
        router.post("/device") { request, _ in
            let form = try await RequestDecoding.form(from: request)
            let userCode = form["user_code"] ?? ""
            var username: String?
            if form["decision"] == "allow" {
                guard let name = form["username"], let password = form["password"],
                    await state.checkPassword(username: name, password: password)
                else { return Self.page(userCode: userCode, message: "The user name or password is wrong.") }
                username = name
            }
            do {
                try await state.decideDevice(userCode: userCode, approvingAs: username)
            } catch {
                return Self.page(userCode: userCode, message: "The code is unknown or expired.")
            }
            return Self.page(userCode: nil, message: username == nil ? "The device was denied." : "The device is signed in.")
        }
    }

    /// The approval page: the user code (filled in from `verification_uri_complete`), the
    /// user's name and password, and the decision.
    static func page(userCode: String?, message: String? = nil) -> Response {
        var body = message.map { "<p role=\"status\">\(LoginPage.escape($0))</p>\n" } ?? ""
        body += """
            <form id="device" method="post" action="/device">
            <label>Code <input name="user_code" value="\(LoginPage.escape(userCode ?? ""))"></label>
            <label>User name <input name="username" autocomplete="username"></label>
            <label>Password <input type="password" name="password" autocomplete="current-password"></label>
            <button type="submit" name="decision" value="allow">Sign the device in</button>
            <button type="submit" name="decision" value="deny">Deny</button>
            </form>

            """
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><title>Sign in a device — Sesame reference server</title></head>
            <body>
            <h1>Sign in a device</h1>
            \(body)</body>
            </html>

            """
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

extension ControlRoutes {
    /// `POST /_control/device`: `{"userCode": "BCDF-GHJK", "approve": true, "username": "alice"}`
    /// answers a device authorization as the user would on the approval page.
    func registerDevice(on control: RouterGroup<ServerRequestContext>) {
        control.post("/device") { request, _ in
            struct Body: Codable {
                var userCode: String
                var approve: Bool
                var username: String?
            }
            let body = try await RequestDecoding.json(Body.self, from: request)
            guard !body.approve || body.username != nil else { throw OAuthError.invalidRequest("Give `username` to approve.") }
            do {
                try await state.decideDevice(userCode: body.userCode, approvingAs: body.approve ? body.username : nil)
            } catch {
                throw OAuthError.notFound("No pending device authorization has this user code.")
            }
            return Responses.noContent()
        }
    }
}
