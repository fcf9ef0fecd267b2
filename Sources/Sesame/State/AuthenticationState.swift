/// Where the authentication of the app's user stands.
///
/// Its description names the case only: it never shows a token, and not the details either
/// (which may hold personal data such as an e-mail address).
public enum AuthenticationState<Details: Codable & Hashable & Sendable>: Sendable, Hashable, Codable,
    CustomStringConvertible
{
    /// No user is signed in.
    case unauthenticated
    /// A session restored at launch, not yet confirmed by a refresh.
    case presession(Details)
    /// A user is signed in.
    case authenticated(Details)
    /// The back-end no longer accepts the session; the user must sign in again.
    case invalid

    /// The user's details when the state has them (presession or authenticated), else nil.
    public var details: Details? {
        switch self {
        case .presession(let details), .authenticated(let details): return details
        case .unauthenticated, .invalid: return nil
        }
    }

    /// Whether the state is `authenticated`.
    public var isAuthenticated: Bool {
        if case .authenticated = self { return true }
        return false
    }

    /// The case's name: `unauthenticated`, `presession`, `authenticated` or `invalid`.
    public var description: String {
        switch self {
        case .unauthenticated: return "unauthenticated"
        case .presession: return "presession"
        case .authenticated: return "authenticated"
        case .invalid: return "invalid"
        }
    }
}
