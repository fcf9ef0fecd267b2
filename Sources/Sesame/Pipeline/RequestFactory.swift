import Foundation
import HTTPTypes
@_spi(Generated) import SesameDescription

/// Turns operation requests and templated bodies into HTTP requests.
enum RequestFactory {
    /// An HTTP request ready for the pipeline.
    struct Prepared: Sendable {
        var request: HTTPRequest
        var body: Data?
    }

    /// The HTTP request for an operation, with its client authentication header when the
    /// request declares `basic` and the client has a secret. A public client (no secret) sends
    /// no header and names itself with `client_id` in a form body instead (RFC 6749 §2.3.1
    /// authenticates with a password, which a public client does not have).
    /// - Throws: `TemplateError` for a missing path parameter; ``SesameError`` when client
    ///   authentication is declared and the configuration has no client credentials.
    static func make(_ operation: OperationRequest, client: ClientCredentials?) throws -> Prepared {
        var fields = HTTPFields()
        fields[.accept] = "application/json"
        var body = operation.body
        if operation.description.clientAuthentication == .basic {
            guard let client else { throw missingClient(operation.description.name) }
            if client.clientSecret != nil {
                fields[.authorization] = try basicAuthorization(client, operation: operation.description.name)
            } else if case .form(var form) = body, !form.contains(where: { $0.name == "client_id" }) {
                form.append(FormField(name: "client_id", value: client.clientID))
                body = .form(form)
            }
        }
        var data: Data?
        if let body {
            let encoded = body.encoded
            data = encoded.data
            fields[.contentType] = encoded.contentType
        }
        let request = HTTPRequest(
            method: HTTPRequest.Method(operation.description.method), scheme: nil, authority: nil,
            path: try operation.resolvedPath(), headerFields: fields)
        return Prepared(request: request, body: data)
    }

    /// Where a request's body names the client (`client_id`) besides what its client
    /// authentication sends.
    enum ClientNaming: Sendable {
        /// Only `post` names the client (a request that is not an OAuth request).
        case onlyWithPost
        /// A public client (`none`) names itself too, where RFC 6749 §3.2.1, §4.1.3 and §6
        /// and RFC 7009 §2.1 require it: a browser or device step's token request, the
        /// refresh, the revocation.
        case publicClientToo
        /// Every mode names the client (`basic` besides its header): the device
        /// authorization request, as RFC 8628 §3.1 shows it.
        case always
    }

    /// A body made of templated fields, encoded as the request declares, with the client's
    /// identity added as its client authentication and `naming` say: `post` adds
    /// `client_id` and `client_secret`; `none` adds `client_id` alone (never the secret)
    /// under ``ClientNaming/publicClientToo`` and ``ClientNaming/always``, `basic` under
    /// ``ClientNaming/always``, when the configuration has a client and the fields do not
    /// already send one. A public client (configured without a secret) under `basic` has no
    /// password to send in a header, so it names itself with `client_id` here instead, as
    /// `post` does: the request then identifies the client whatever mode the schema declares.
    /// - Throws: `TemplateError` for a placeholder without a value; ``SesameError`` when
    ///   `post` client authentication is declared and there are no client credentials.
    static func body(
        fields: [TemplateField], for request: RequestDescription, client: ClientCredentials?, naming: ClientNaming,
        lookup: (Placeholder) -> JSONValue?
    ) throws -> RequestBody {
        var resolved: [(name: String, value: JSONValue)] = try fields.map { ($0.name, try $0.value.resolve(lookup)) }
        let isPublicClient = client.map { $0.clientSecret == nil } ?? false
        let namesClient: Bool =
            switch (request.clientAuthentication, naming) {
            case (.post, _), (.none, .publicClientToo), (_, .always): true
            case (.basic, _): isPublicClient
            case (.none, .onlyWithPost): false
            }
        if request.clientAuthentication == .post {
            guard let client else { throw missingClient(request.name) }
            resolved.append(("client_id", .string(client.clientID)))
            if let secret = client.clientSecret { resolved.append(("client_secret", .string(secret))) }
        } else if namesClient, let client, !resolved.contains(where: { $0.name == "client_id" }) {
            // The client's identity, never its secret (the configuration may hold one).
            resolved.append(("client_id", .string(client.clientID)))
        }
        switch request.encoding {
        case .form:
            return .form(resolved.map { FormField(name: $0.name, value: $0.value.formValue) })
        case .json:
            let object = Dictionary(resolved, uniquingKeysWith: { _, last in last })
            return try .json(JSONValue.object(object))
        }
    }

    /// `Basic base64(urlencode(id):urlencode(secret))`, as RFC 6749 §2.3.1 says.
    static func basicAuthorization(_ client: ClientCredentials?, operation: String) throws -> String {
        guard let client else { throw missingClient(operation) }
        // FormField.encode keeps spaces as they are; the form encoding wants `+`.
        func encode(_ text: String) -> String { FormField.encode(text).replacingOccurrences(of: " ", with: "+") }
        let pair = "\(encode(client.clientID)):\(encode(client.clientSecret ?? ""))"
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    private static func missingClient(_ operation: String) -> SesameError {
        .invalidState(reason: "\(operation) needs client authentication and the configuration has no client credentials")
    }
}
