@_spi(Generated) import SesameDescription

extension AuthorizationRequest {
    /// Checks the `iss` of an authorization response, success or error (RFC 9207 §2.4),
    /// against `expected`: a different `iss` is refused, and so is a missing one when the
    /// server is declared to send it. With no declared issuer nothing is compared.
    /// - Throws: ``BrowserSignInError/issuerMismatch(expected:received:)``.
    static func checkIssuer(_ received: String?, expected: AuthorizationServerIssuer?) throws {
        guard let expected else { return }
        switch received {
        case .some(let issuer) where issuer == expected.issuer:
            return
        case .none where !expected.sentInResponses:
            return
        default:
            throw BrowserSignInError.issuerMismatch(expected: expected.issuer, received: received)
        }
    }
}
