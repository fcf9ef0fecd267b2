import Foundation
import HTTPTypes

/// Reads the `error` parameter of an RFC 6750 `WWW-Authenticate: Bearer` challenge.
enum BearerChallenge {
    /// The `error` of the first Bearer challenge that has one in the response's
    /// `WWW-Authenticate` fields, or nil when there is none.
    static func error(in headerFields: HTTPFields) -> String? {
        error(in: headerFields, scheme: "bearer")
    }

    /// The `error` of the first challenge of `scheme` (lower case: `dpop` for RFC 9449's)
    /// that has one.
    static func error(in headerFields: HTTPFields, scheme: String) -> String? {
        AuthenticationChallenge.challenges(in: headerFields).lazy.compactMap { $0.scheme == scheme ? $0.parameters["error"] : nil }
            .first
    }

    /// The `error` parameter of the first Bearer challenge that has one in one field value.
    static func error(inHeaderValue value: String) -> String? {
        AuthenticationChallenge.parse(value).lazy.compactMap(error(of:)).first
    }

    private static func error(of challenge: AuthenticationChallenge) -> String? {
        challenge.scheme == "bearer" ? challenge.parameters["error"] : nil
    }
}
