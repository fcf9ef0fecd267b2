import Foundation
import HTTPTypes
import Hummingbird

/// The end-session endpoint of OpenID Connect RP-Initiated Logout 1.0, on the authorization
/// server's listener and in the discovery document as `end_session_endpoint`.
struct EndSessionRoutes {
    let state: ReferenceServerState
    let configuration: ReferenceServer.Configuration

    /// Where the endpoint is served.
    static let path = "/oauth/logout"

    /// `GET /oauth/logout?id_token_hint=…&client_id=…&post_logout_redirect_uri=…&state=…`:
    /// checks the hint and the redirect URI (``ReferenceServerState/endSession(idTokenHint:clientID:postLogoutRedirectURI:state:issuer:clients:)``),
    /// ends the hint's sign-in and answers 302 to `post_logout_redirect_uri` with `state`, or a
    /// "signed out" page without one. A refused request gets a 400 page and is not redirected:
    /// its redirect URI is not trusted. The request log keeps the path only, never the hint.
    func register(on router: Router<ServerRequestContext>) {
        router.get(RouterPath(Self.path)) { request, _ in
            let parameters: [String: String]
            do {
                parameters = try FormURLEncoding.parse(request.uri.query ?? "")
            } catch let error as FormURLEncoding.DuplicateParameter {
                return LoginPage.badRequest("The parameter `\(error.name)` is repeated.")
            }
            let issuer = await state.currentIssuer() ?? request.head.authority.map { "http://\($0)" } ?? ""
            let ended: ReferenceServerState.EndedSession
            do {
                ended = try await state.endSession(
                    idTokenHint: parameters["id_token_hint"], clientID: parameters["client_id"],
                    postLogoutRedirectURI: parameters["post_logout_redirect_uri"], state: parameters["state"],
                    issuer: issuer, clients: configuration.clients)
            } catch let error as OAuthError {
                return LoginPage.badRequest(error.description ?? "The end-session request is refused.")
            }
            guard let redirectURI = ended.redirectURI else { return LoginPage.signedOut() }
            var location = redirectURI
            if let value = ended.state {
                location += (redirectURI.contains("?") ? "&" : "?") + "state=" + FormURLEncoding.encode(value)
            }
            var headers = HTTPFields()
            headers[.location] = location
            headers[.cacheControl] = "no-store"
            return Response(status: .found, headers: headers, body: .init())
        }
    }
}
