import Foundation

/// Validates the ID token of an OpenID Connect sign-in (OpenID Connect Core §3.1.3.7). Set one
/// as the configuration's `idTokenValidator`: each browser sign-in then sends a fresh `nonce`,
/// requires an `id_token` in the code exchange's response, and hands it here with that nonce
/// and the access token issued with it. `SesameOpenID`'s `IDTokenValidator` is the
/// implementation (signatures against the provider's JWKS, with jwt-kit).
public protocol IDTokenValidating: Sendable {
    /// Checks `idToken` against every rule, at `now`.
    /// - Returns: the token's subject (`sub`).
    /// - Throws: why the token was refused (`IDTokenRejection` for `SesameOpenID`'s
    ///   validator); the sign-in then fails, keeps none of the tokens and changes nothing.
    func validateIDToken(_ idToken: String, expecting expectations: IDTokenExpectations, now: Date) async throws -> String
}
