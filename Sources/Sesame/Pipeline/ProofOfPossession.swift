import Foundation
import HTTPTypes

extension HTTPField.Name {
    /// RFC 9449 §4.1's `DPoP` field, which carries a request's proof.
    @_spi(Generated) public static let dpop = HTTPField.Name("DPoP")!
}

/// Proves that a request comes from the holder of the key the server bound the session's
/// tokens to: DPoP (RFC 9449), for a schema whose credential says `binding: dpop`.
///
/// `SesameDPoP`'s `DPoP` is the implementation: one P-256 key kept in a key store, ES256
/// proofs signed with jwt-kit, and the servers' nonces. Give one to the configuration
/// (``AuthenticationServiceConfiguration/proofOfPossession``); the service asks it for a
/// proof for every request it sends to the API or the authorization server (token,
/// refresh, revocation, device authorization and the API's requests alike), shows it every
/// response from them, and has it replace its key when the user signs out.
public protocol ProofOfPossession: Sendable {
    /// The value of the `DPoP` header field of a `method` request to `url`.
    /// - Parameters:
    ///   - method: the request's method (the proof's `htm`).
    ///   - url: the URL the request goes to (its `htu` is this without query and fragment).
    ///   - accessToken: the access token the request presents, for a request to a resource
    ///     (its hash goes in the proof's `ath`); nil for the authorization server's token
    ///     endpoint and the other requests that carry none.
    /// - Throws: when no proof can be made; the request is not sent.
    func proof(method: HTTPRequest.Method, url: URL, accessToken: String?) async throws -> String

    /// Reads what a response of `url`'s server says for later proofs (its `DPoP-Nonce`).
    /// - Parameters:
    ///   - response: the response's status and header fields.
    ///   - body: the body of a 400 or 401 response (at most the configuration's response
    ///     limit); nil for other statuses.
    ///   - url: the URL the request went to.
    /// - Returns: whether the response asks for the request again with the nonce it sent
    ///   (`use_dpop_nonce`, RFC 9449 §8 and §9): the service sends it once more, with a new
    ///   proof. That retry is never a refresh, and counts against no refresh window.
    func receive(_ response: HTTPResponse, body: Data?, from url: URL) async -> Bool

    /// Forgets the key and the nonces, once the session ended: the next session's tokens are
    /// bound to a new key.
    func replaceKey() async throws

    /// Another process sharing the session (a `SharedSessionStore`) changed it: a sign-in
    /// there bound the session's tokens to the key it keeps in the shared key store, so the
    /// next proof reads the key again. Nothing by default.
    func sessionDidChangeElsewhere() async
}

extension ProofOfPossession {
    /// Nothing: a prover whose key no other process changes keeps it.
    public func sessionDidChangeElsewhere() async {}
}
