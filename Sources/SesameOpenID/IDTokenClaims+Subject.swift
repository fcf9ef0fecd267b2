import Foundation

extension IDTokenClaims {
    /// The `sub` of `idToken`, a token the session keeps (validated when it was received),
    /// read with jwt-kit's parser as ``decode(_:fromValidated:)`` reads claims; nil when the
    /// token is no JWT or its payload has no string `sub`. A generated SDK whose schema names
    /// a UserInfo operation gives it to the runtime, which compares it with the UserInfo
    /// response's `sub` (OpenID Connect Core §5.3.2).
    @_spi(Generated) public static func subject(ofValidated idToken: String) -> String? {
        try? decode(Subject.self, fromValidated: idToken).sub
    }
}

/// The one claim ``IDTokenClaims/subject(ofValidated:)`` reads.
private struct Subject: Decodable, Sendable {
    var sub: String
}
