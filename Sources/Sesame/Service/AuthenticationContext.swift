/// Whose account an authentication method signs in to, as Webcom's
/// `authenticate(with:context:)` says.
public enum AuthenticationContext: Sendable, Hashable {
    /// A sign-in of its own: whoever the method identifies becomes the signed-in user.
    case new
    /// Attaches the method's identity to the signed-in user's account (the counterpart of
    /// ``AuthenticationService/detachCurrentIdentity()``): the method's steps sent to the API
    /// carry the current credential (except a step with client authentication, which keeps
    /// the client's `Authorization`), and on success the user stays the same, with the new
    /// credential and refreshed details. A different user id from the back-end is
    /// ``SesameError/accountMismatch(reason:)`` and changes nothing.
    case currentAccount
    /// Signs the signed-in user in again, as after a
    /// ``SesameError/stepUpRequired(operation:challenge:)`` (RFC 9470): the method runs as
    /// for ``new`` (its steps carry no current credential), and before anything is committed
    /// the user id of the new sign-in's details is compared with the current user's. The same
    /// user keeps the session (no user switch) with the new credential and fresh details;
    /// another user is ``SesameError/accountMismatch(reason:)``, the new tokens are revoked
    /// (the schema's `lifecycle.revoke`) as a cancelled sign-in's are, and the state is
    /// unchanged. Throws ``SesameError/notAuthenticated`` unless a user is `authenticated`.
    case sameAccount
}
