import Foundation

/// Where sign-out ends the user's session at the OpenID provider (OpenID Connect
/// RP-Initiated Logout 1.0): the provider's `end_session_endpoint` (from its discovery
/// document, `/.well-known/openid-configuration`) and the URI it redirects back to.
///
/// Set it in ``AuthenticationServiceConfiguration/endSession``. With it, and a session that
/// holds an ID token (``Credential/idToken``), `unauthenticate()` opens the endpoint in the
/// configuration's ``Browser`` after the back-end's revocation, with `id_token_hint`,
/// `client_id`, `post_logout_redirect_uri` and a fresh `state`, and waits at most
/// ``timeout`` for the redirect back. The local session is cleared before the browser opens,
/// whatever the browser does.
public struct EndSessionConfiguration: Sendable, Hashable {
    /// The provider's `end_session_endpoint`; its own query items are kept.
    public var endpoint: URL
    /// The `post_logout_redirect_uri` sent, one of those registered for the client: the
    /// browser waits for the provider to redirect to it, and its `state` is checked.
    public var postLogoutRedirectURI: URL
    /// The longest the browser step may take, from opening the endpoint to the redirect back.
    /// Past it the browser is dismissed and the result says the provider did not confirm.
    /// Two minutes by default.
    public var timeout: Duration

    /// Creates the configuration of the provider's end-session endpoint.
    public init(endpoint: URL, postLogoutRedirectURI: URL, timeout: Duration = .seconds(120)) {
        self.endpoint = endpoint
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.timeout = timeout
    }

    /// The end-session request: the endpoint with `id_token_hint`, `client_id` (when there is
    /// one), `post_logout_redirect_uri` and `state` added to its query; nil when the endpoint
    /// is not a URL whose query can be extended.
    func requestURL(idTokenHint: String, clientID: String?, state: String) -> URL? {
        guard var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) else { return nil }
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: "id_token_hint", value: idTokenHint))
        if let clientID { items.append(URLQueryItem(name: "client_id", value: clientID)) }
        items.append(URLQueryItem(name: "post_logout_redirect_uri", value: postLogoutRedirectURI.absoluteString))
        items.append(URLQueryItem(name: "state", value: state))
        // URLComponents leaves `+` and `/` alone in queries; encode what form decoding would misread.
        components.percentEncodedQueryItems = items.map {
            URLQueryItem(name: $0.name, value: $0.value.map(Self.encodeQueryValue))
        }
        return components.url
    }

    private static func encodeQueryValue(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "+&=/?#")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
