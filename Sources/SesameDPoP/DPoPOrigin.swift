import Foundation

/// An http(s) origin (RFC 6454): scheme and host lowercased (an IPv6 host without its
/// brackets), and the port, the scheme's default made explicit. Server nonces are kept per
/// origin (``DPoPNonces``).
public struct DPoPOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public let scheme: String
    /// The host, lowercased.
    public let host: String
    /// The port: the URL's, or 443 for `https` and 80 for `http`.
    public let port: Int

    /// The origin of `scheme`, `host` and `port`.
    /// - Returns: nil when the scheme is not `http` or `https` (in any case) or the host is
    ///   empty.
    public init?(scheme: String, host: String, port: Int? = nil) {
        let scheme = scheme.lowercased()
        var host = host.lowercased()
        guard scheme == "https" || scheme == "http", !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host
        self.port = port ?? (scheme == "https" ? 443 : 80)
    }

    /// The origin of an absolute http(s) URL.
    /// - Returns: nil for any other URL (no host, another scheme, a relative URL).
    public init?(url: URL) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme, let host = components.host
        else { return nil }
        self.init(scheme: scheme, host: host, port: components.port)
    }

    /// `scheme://host:port`, with an IPv6 host in brackets.
    public var description: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
