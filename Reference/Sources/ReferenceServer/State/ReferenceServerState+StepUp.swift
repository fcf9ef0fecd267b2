import Foundation

/// The authentication context class (`acr`) each login-page code and session reached.
struct AuthenticationContexts: Sendable {
    var codes: [String: String] = [:]
    var sessions: [UUID: String] = [:]
}

extension ReferenceServerState {
    /// Records the class the sign-in behind authorization code `code` reached.
    func recordAuthenticationContext(_ acr: String, forCode code: String) {
        authenticationContexts.codes[code] = acr
    }

    /// Gives the session the code's tokens started the class its sign-in reached.
    func bindAuthenticationContext(ofCode code: String, to sessionID: UUID) {
        if let acr = authenticationContexts.codes.removeValue(forKey: code) { authenticationContexts.sessions[sessionID] = acr }
    }

    /// The class the session's sign-in reached (nil for sign-ins outside the login page) and
    /// when it happened; refreshes keep both.
    func authenticationContext(of session: AuthenticatedSession) -> (acr: String?, authTime: Date) {
        (authenticationContexts.sessions[session.sessionID], session.authenticatedAt)
    }
}
