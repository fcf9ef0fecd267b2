/// Why the response of the schema's UserInfo operation (`openID.userInfo`) was not used:
/// OpenID Connect Core §5.3.2 says "the sub Claim in the UserInfo Response MUST be verified to
/// exactly match the sub Claim in the ID Token; if they do not match, the UserInfo Response
/// values MUST NOT be used". The operation then throws this and returns nothing; the session
/// and the state stay as they are.
///
/// Descriptions name the operation and the rule, never a token or a claim's value.
public enum UserInfoRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The response's `sub` is not the `sub` of the session's ID token (a response about
    /// another user, or a token the provider mixed up).
    case subjectMismatch(operation: String)
    /// The session holds no validated ID token to compare the response with: it signed in
    /// with a method that is no OpenID Connect sign-in, or the token's payload has no `sub`.
    case noIDToken(operation: String)

    /// The operation that was refused.
    public var operation: String {
        switch self {
        case .subjectMismatch(let operation), .noIDToken(let operation): operation
        }
    }

    /// The operation and the rule that refused its response, without the `sub` values.
    public var description: String {
        switch self {
        case .subjectMismatch(let operation):
            "\(operation): the UserInfo response's sub is not the ID token's, so its values are not used (OpenID Connect Core §5.3.2)"
        case .noIDToken(let operation):
            "\(operation): the session holds no validated ID token whose sub the UserInfo response could be checked against (OpenID Connect Core §5.3.2): sign in with an OpenID Connect method"
        }
    }
}
