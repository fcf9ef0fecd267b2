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
}
