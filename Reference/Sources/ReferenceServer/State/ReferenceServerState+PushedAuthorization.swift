import Foundation

/// A pushed authorization request (RFC 9126 §2): the parameters a client posted, kept under
/// their `request_uri` until they expire or are used.
struct PushedRequestRecord: Sendable {
    var clientID: String
    var parameters: [String: String]
    var expiresAt: Date
    /// The DPoP key the code must be redeemed with (the push's proof, or its `dpop_jkt`).
    var dpopJKT: String?
    /// True once the authorization endpoint showed its login page: a second `GET` is refused.
    var opened = false
}

extension ReferenceServerState {
    // MARK: Pushed authorization requests (RFC 9126)

    /// The prefix of every `request_uri` (RFC 9126 §2.2).
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"

    /// Keeps `parameters` for `clientID` and returns their `request_uri` and lifetime.
    func push(parameters: [String: String], clientID: String, dpopJKT: String?) -> (requestURI: String, expiresIn: Int) {
        let lifetime = configuration.pushedAuthorization.lifetime
        let requestURI = Self.requestURIPrefix + SecretGenerator.token()
        let now = now()
        pushedRequests = pushedRequests.filter { $0.value.expiresAt > now }
        pushedRequests[requestURI] = PushedRequestRecord(
            clientID: clientID, parameters: parameters, expiresAt: now.addingTimeInterval(lifetime.timeInterval), dpopJKT: dpopJKT)
        return (requestURI, max(1, Int(lifetime.timeInterval.rounded(.down))))
    }

    /// The pushed request `requestURI` names for `clientID`, once (RFC 9126 §4): `opening`
    /// for the login page's `GET`, which may happen once; then the page's `POST`s, until
    /// ``consumePushedRequest(_:)``. Nil for an unknown, expired or used `request_uri`, one
    /// of another client, or a second opening.
    func pushedRequest(_ requestURI: String, clientID: String, opening: Bool) -> PushedRequestRecord? {
        guard var record = pushedRequests[requestURI], record.clientID == clientID else { return nil }
        guard now() < record.expiresAt else {
            pushedRequests[requestURI] = nil
            return nil
        }
        guard record.opened != opening else { return nil }
        record.opened = true
        pushedRequests[requestURI] = record
        return record
    }

    /// Forgets a pushed request once the login page decided it.
    func consumePushedRequest(_ requestURI: String) {
        pushedRequests[requestURI] = nil
    }
}
