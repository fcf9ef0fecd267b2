/// Where the ``CredentialMiddleware`` gets the credential and what it does when the auth
/// server rejects one. The authentication service is the source of its session's
/// credential; a fixed credential serves the requests made while a sign-in completes.
protocol CredentialSource: Sendable {
    /// The credential to send, refreshed first when it is within the leeway of its expiry;
    /// nil when there is no session.
    /// - Throws: when the session ended, or the credential expired and cannot be refreshed.
    func credentialForSending() async throws -> Credential?

    /// The credential to retry a request with after the auth server rejected `rejected`:
    /// the current one at once when it already replaced `rejected`, else a refreshed one;
    /// nil when there is nothing better (the rejected response is then returned).
    /// - Throws: when the refresh fails; a rejected refresh invalidates the session.
    func credentialAfterRejection(of rejected: Credential) async throws -> Credential?
}

/// A credential that does not change and is never refreshed.
struct FixedCredentialSource: CredentialSource {
    let credential: Credential

    func credentialForSending() async throws -> Credential? { credential }
    func credentialAfterRejection(of rejected: Credential) async throws -> Credential? { nil }
}
