import Foundation

/// The origin of a URL as RFC 6454 §4 compares them, and whether a URL is safe to send tokens
/// to: the one helper the generator uses wherever it compares origins (discovery, sdk.yaml's
/// `openID.endSession`), so that every check agrees on the same URL.
public enum WebOrigin {
    /// `scheme://host[:port]`, lowercased; an IPv6 host in brackets (`http://[::1]:8081`),
    /// whichever way Foundation reports it; the scheme's default port left out, so
    /// `https://idp.example.com:443` is `https://idp.example.com`.
    public static func of(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let host = url.host?.lowercased() ?? ""
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = url.port.flatMap { $0 == defaultPort(of: scheme) ? nil : $0 }
        return "\(scheme)://\(bracketed)" + (port.map { ":\($0)" } ?? "")
    }

    /// Whether `url` is `https` with a host, or `http` on a loopback host (127.0.0.1, ::1,
    /// localhost), the only places a token may go.
    public static func isSecure(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return url.host?.isEmpty == false
        case "http": return ["127.0.0.1", "::1", "[::1]", "localhost"].contains(url.host?.lowercased() ?? "")
        default: return false
        }
    }

    private static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "https": 443
        case "http": 80
        default: nil
        }
    }
}
