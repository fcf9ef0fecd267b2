import Foundation
import HTTPTypes
@_spi(Generated) import SesameDescription

/// The one place that turns (credential, binding, request) into header fields, and reads
/// the binding's challenges: the credential middleware, the redirect follower and the
/// rejection matcher ask it, never the binding. A new binding is a new branch here.
struct CredentialPresenter: Sendable, Hashable {
    let binding: CredentialBinding

    /// RFC 6750's `Authorization: Bearer {accessToken}`.
    static let bearer = CredentialPresenter(
        binding: .bearer(header: "Authorization", format: .interpolation([.text("Bearer "), .variable(.accessToken)])))

    /// The header fields that carry `credential` on `request`, sent to `baseURL`: the
    /// binding's header and format. A DPoP proof is `ProofMiddleware`'s, which signs each
    /// request, each hop of a redirect chain included, as it is sent.
    /// - Throws: the template's error when the value cannot be formed.
    func fields(carrying credential: Credential, on request: HTTPRequest, baseURL: URL) throws -> HTTPFields {
        let value = try binding.format.resolve { $0 == .accessToken ? credential.value(of: $0) : nil }.formValue
        var fields = HTTPFields()
        fields[header] = value
        return fields
    }

    /// Whether requests carry a proof of possession (``ProofOfPossession``).
    var provesPossession: Bool {
        if case .dpop = binding { return true }
        return false
    }

    /// The fields ``fields(carrying:on:baseURL:)`` sets: what a redirect to another origin
    /// drops, besides `Authorization`, `Proxy-Authorization` and `Cookie`.
    var fieldNames: [HTTPField.Name] {
        switch binding {
        case .bearer: [header]
        case .dpop: [.authorization, .dpop]
        }
    }

    /// The `error` parameter of the binding's challenge in a response (`WWW-Authenticate:
    /// Bearer error="invalid_token"`), nil when there is none.
    func challengeError(in headerFields: HTTPFields) -> String? {
        switch binding {
        case .bearer: BearerChallenge.error(in: headerFields)
        case .dpop: BearerChallenge.error(in: headerFields, scheme: "dpop")
        }
    }

    /// The header a bearer token goes in; `Authorization` when the schema's name is not a
    /// header name.
    private var header: HTTPField.Name {
        HTTPField.Name(binding.header) ?? .authorization
    }
}

extension HTTPFields {
    /// Sets each field of `fields`, replacing the fields of the same name.
    mutating func set(_ fields: HTTPFields) {
        for name in Set(fields.map(\.name)) { self[fields: name] = fields[fields: name] }
    }
}
