import Foundation
import Sesame

extension IDTokenValidator: IDTokenValidating {
    /// ``validate(_:expecting:now:)``, for the service (``IDTokenValidating``).
    /// - Returns: the token's subject.
    /// - Throws: ``IDTokenRejection``.
    public func validateIDToken(_ idToken: String, expecting expectations: IDTokenExpectations, now: Date) async throws -> String {
        try await validate(idToken, expecting: expectations, now: now).subject
    }
}
