import Foundation

extension DPoPProofSigner {
    /// The `htu` of a request to `url` (RFC 9449 §4.2): the target URI without its query and
    /// fragment, normalised as §4.3 compares it (RFC 3986 §6.2.2 and §6.2.3): the scheme and
    /// host lowercased, the scheme's default port left out, an empty path written `/`, and
    /// no user information. The path is kept as it is percent-encoded.
    /// - Returns: nil when `url` is not an absolute `http` or `https` URL with a host.
    public static func targetURI(of url: URL) -> String? {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            var host = components.percentEncodedHost?.lowercased(), !host.isEmpty
        else { return nil }
        // An IPv6 literal keeps (or regains) its brackets.
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        var uri = "\(scheme)://\(host)"
        if let port = components.port, port != (scheme == "https" ? 443 : 80) { uri += ":\(port)" }
        let path = components.percentEncodedPath
        uri += path.isEmpty ? "/" : path
        return uri
    }
}
