import Foundation
import HTTPTypes

/// What a resource server asks for when the access token's authentication is not strong or
/// recent enough (RFC 9470 §3): a `401` (or `403`) with `WWW-Authenticate: Bearer
/// error="insufficient_user_authentication"`, and optionally the authentication context
/// classes it accepts (`acr_values`) and how old the authentication may be (`max_age`).
///
/// The runtime never refreshes on it (a refreshed token carries the same authentication) and
/// never invalidates the session: the operation fails with
/// ``SesameError/stepUpRequired(operation:challenge:)``. Sign in again in the browser with
/// ``AuthorizationParameters/init(stepUp:prompt:loginHint:)`` made from it, then retry.
public struct StepUpChallenge: Sendable, Hashable, CustomStringConvertible {
    /// The authentication context class references the resource server accepts, in its order
    /// of preference; empty when it names none.
    public var acrValues: [String]
    /// The largest age, in seconds, of the user's authentication the resource server
    /// accepts; nil when it sets none.
    public var maxAge: Int?

    /// The `error` of an RFC 9470 challenge.
    public static let error = "insufficient_user_authentication"

    /// A challenge with these values.
    public init(acrValues: [String] = [], maxAge: Int? = nil) {
        self.acrValues = acrValues
        self.maxAge = maxAge
    }

    /// The step-up challenge of a response's `WWW-Authenticate` fields: the first Bearer
    /// challenge whose `error` is `insufficient_user_authentication`.
    /// - Returns: nil when there is none; a `max_age` that is not a non-negative integer, or
    ///   an empty `acr_values`, is left out rather than failing.
    public init?(headerFields: HTTPFields) {
        let challenge = AuthenticationChallenge.challenges(in: headerFields).first {
            $0.scheme == "bearer" && $0.parameters["error"] == Self.error
        }
        guard let challenge else { return nil }
        acrValues = (challenge.parameters["acr_values"] ?? "").split(separator: " ").map(String.init)
        maxAge = challenge.parameters["max_age"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// `acr_values` and `max_age`, as a log line may show them (neither is a secret).
    public var description: String {
        var parts = ["step-up required"]
        if !acrValues.isEmpty { parts.append("acr_values \(acrValues.joined(separator: " "))") }
        if let maxAge { parts.append("max_age \(maxAge)s") }
        return parts.joined(separator: ", ")
    }
}
