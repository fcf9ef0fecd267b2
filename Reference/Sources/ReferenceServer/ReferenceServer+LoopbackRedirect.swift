import Foundation

extension ReferenceServer.Client {
    /// `http://127.0.0.1/callback`, the demo client's loopback redirect URI (RFC 8252 §7.3):
    /// registered without a port, it accepts any.
    public static let demoLoopbackRedirectURI = "http://127.0.0.1/callback"

    /// Whether the authorization endpoint accepts `redirectURI` for this client: one of its
    /// ``redirectURIs`` exactly (RFC 6749 §3.1.2.3), or, for a loopback one registered
    /// without a port (`http://127.0.0.1/path`), the same URI with any port, as RFC 8252
    /// §7.3 requires of authorization servers for native apps.
    func accepts(redirectURI: String) -> Bool {
        if redirectURIs.contains(redirectURI) { return true }
        guard let asked = URLComponents(string: redirectURI), asked.scheme == "http", asked.host == "127.0.0.1",
            asked.port != nil, asked.user == nil, asked.password == nil, asked.query == nil, asked.fragment == nil
        else { return false }
        return redirectURIs.contains { registered in
            guard let loopback = URLComponents(string: registered), loopback.scheme == "http", loopback.host == "127.0.0.1",
                loopback.port == nil
            else { return false }
            return loopback.path == asked.path
        }
    }
}
