import Foundation
import HTTPTypes

/// Where the credential may go: requests for the base URL's origin (scheme, host, port)
/// only, and never over plain `http` unless the host is a loopback address.
struct CredentialScope: Sendable, Hashable {
    /// An http(s) origin: lower-case scheme and host (without IPv6 brackets), default port
    /// made explicit.
    struct Origin: Hashable, Sendable {
        var scheme: String
        var host: String
        var port: Int

        init?(scheme: String?, host: String?, port: Int?) {
            guard let scheme = scheme?.lowercased(), scheme == "https" || scheme == "http",
                var host = host?.lowercased(), !host.isEmpty
            else { return nil }
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            self.scheme = scheme
            self.host = host
            self.port = port ?? (scheme == "https" ? 443 : 80)
        }

        /// The origin of an http(s) URL; nil for any other URL.
        init?(url: URL) {
            self.init(scheme: url.scheme, host: url.host, port: url.port)
        }
    }

    private let origin: Origin?
    /// The URL the scope was made from: requests sent to it need no parsing of the URL.
    private let baseURL: URL

    /// The scope of `baseURL`; it permits nothing when the URL is not http(s), or is plain
    /// http to a host that is not a loopback address.
    init(baseURL: URL) {
        self.baseURL = baseURL
        guard let origin = Origin(url: baseURL) else {
            self.origin = nil
            return
        }
        self.origin = origin.scheme == "https" || CredentialScope.isLoopback(origin.host) ? origin : nil
    }

    /// Whether the credential may go on `request`, sent to `baseURL`.
    func permits(_ request: HTTPRequest, baseURL: URL) -> Bool {
        guard let origin else { return false }
        // Reading a URL's host parses it; equal URLs have the same origin.
        if baseURL != self.baseURL, Origin(url: baseURL) != origin { return false }
        if let scheme = request.scheme, scheme.lowercased() != origin.scheme { return false }
        if let authority = request.authority {
            let components = URLComponents(string: "\(origin.scheme)://\(authority)")
            guard Origin(scheme: origin.scheme, host: components?.host, port: components?.port) == origin else { return false }
        }
        // A path such as `//evil.example/x` would name another host to some URL parsers.
        guard let path = request.path, path.hasPrefix("/"), !path.hasPrefix("//") else { return false }
        return true
    }

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host.hasSuffix(".localhost") { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
