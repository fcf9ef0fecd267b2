/// What a running step asks the app to show the user while it waits for them
/// (``OngoingAuthentication/prompt``): one case per kind of step that shows something.
///
/// More cases may come with new kinds of step: a `switch` over it should have a `default`.
public enum AuthenticationPrompt: Sendable, Hashable, CustomStringConvertible {
    /// A device step (RFC 8628) waits for the user to sign in on another device: show them
    /// the user code and where to enter it.
    case deviceAuthorization(DeviceAuthorizationPrompt)

    /// What the user is waiting at, never a code: `waiting for the user at https://…`.
    public var description: String {
        switch self {
        case .deviceAuthorization(let prompt): "waiting for the user at \(prompt.verificationURI.absoluteString)"
        }
    }
}
