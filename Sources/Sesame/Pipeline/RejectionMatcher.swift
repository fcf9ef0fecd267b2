import Foundation
import HTTPTypes
@_spi(Generated) import SesameDescription

/// Tells the auth server's own rejection of a credential, as the schema's
/// `credential.rejection` describes it, from any other 401 or 403 (a downstream service's,
/// which must be returned untouched and must never trigger a refresh).
struct RejectionMatcher: Sendable {
    let rule: RejectionRule
    let catalogue: ErrorCatalogue
    /// Reads the binding's challenge (`WWW-Authenticate: Bearer error=…`).
    var presenter: CredentialPresenter = .bearer

    /// Whether a response with this status may be a rejection (the body is then needed).
    func mayMatch(status: Int) -> Bool {
        status == rule.status
    }

    /// Whether the response matches every condition of the rule.
    func matches(status: Int, headerFields: HTTPFields, body: Data) -> Bool {
        guard status == rule.status else { return false }
        if let expected = rule.wwwAuthenticateError, presenter.challengeError(in: headerFields) != expected {
            return false
        }
        if let expected = rule.bodyCode {
            let value = try? JSONDecoder().decode(JSONValue.self, from: body)
            guard value?[catalogue.codeField]?.stringValue == expected else { return false }
        }
        return true
    }
}
