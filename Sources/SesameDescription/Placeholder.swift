/// What a template's `{placeholder}` stands for: the protocol's vocabulary, spelled once.
///
/// A schema writes `{accessToken}`, `{code}` or `{initialize.challengeId}`; the generator
/// parses each into one of these cases for the context it appears in (``runtimeValues``
/// are only what that context provides), and the runtime supplies each value in one
/// `switch`.
@_spi(Generated) public enum Placeholder: Sendable, Hashable {
    /// The session's access token (the credential's format, the refresh, the revocation).
    case accessToken
    /// The session's refresh token (the refresh, the revocation).
    case refreshToken
    /// The authorization code the browser brought back (`{code}`, a browser step's token request).
    case authorizationCode
    /// The PKCE verifier of the browser step (`{codeVerifier}`, RFC 7636 §4.5).
    case codeVerifier
    /// The redirect URI the authorization request named (`{redirectURI}`, RFC 6749 §4.1.3).
    case redirectURI
    /// The device code of a device step's authorization (`{deviceCode}`, RFC 8628 §3.4).
    case deviceCode
    /// A method parameter, or a value the app supplied before a step (`needs`).
    case parameter(String)
    /// A field of an earlier step's response (`{initialize.challengeId}`).
    case stepOutput(step: String, path: [String])

    /// The values the runtime supplies, by the name a schema writes between braces.
    public static let runtimeValues: [String: Placeholder] = [
        "accessToken": .accessToken, "refreshToken": .refreshToken, "code": .authorizationCode,
        "codeVerifier": .codeVerifier, "redirectURI": .redirectURI, "deviceCode": .deviceCode,
    ]

    /// The placeholder a schema writes as `{path}` (`path` split at dots), where the values in
    /// `provided` are what the runtime supplies in that context; any other single name is a
    /// parameter.
    public init(path: [String], provided: Set<Placeholder>) {
        if path.count > 1 {
            self = .stepOutput(step: path[0], path: Array(path.dropFirst()))
        } else if let value = Self.runtimeValues[path.first ?? ""], provided.contains(value) {
            self = value
        } else {
            self = .parameter(path.first ?? "")
        }
    }

    /// The placeholder as a schema writes it, without the braces: `code`, `initialize.challengeId`.
    public var spelling: String {
        switch self {
        case .parameter(let name): return name
        case .stepOutput(let step, let path): return ([step] + path).joined(separator: ".")
        default: return Self.runtimeValues.first { $0.value == self }?.key ?? ""
        }
    }
}
