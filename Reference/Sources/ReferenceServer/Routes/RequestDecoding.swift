import Foundation
import HTTPTypes
import Hummingbird

/// Reading request bodies and credentials, with RFC 6749 / RFC 6750 errors on failure.
enum RequestDecoding {
    /// The largest body any route reads.
    static let maxBodySize = 1 << 20

    /// The body's bytes (empty when there is none). Throws 400 `invalid_request` when too large.
    static func body(of request: Request) async throws -> Data {
        do {
            let buffer = try await request.body.collect(upTo: maxBodySize)
            return Data(buffer.readableBytesView)
        } catch {
            throw OAuthError.invalidRequest("The request body is too large.")
        }
    }

    /// Decodes a JSON body. Throws 400 `invalid_request` for a missing or malformed body.
    static func json<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        let data = try await body(of: request)
        guard !data.isEmpty else { throw OAuthError.invalidRequest("The request needs a JSON body.") }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch DecodingError.keyNotFound(let key, _) {
            throw OAuthError.invalidRequest("The body lacks `\(key.stringValue)`.")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw OAuthError.invalidRequest("`\(field)` has the wrong type.")
        } catch {
            throw OAuthError.invalidRequest("The body is not valid JSON.")
        }
    }

    /// True when the request's body is `application/x-www-form-urlencoded`.
    static func isForm(_ request: Request) -> Bool {
        let mediaType = request.headers[.contentType]?
            .split(separator: ";").first?
            .trimmingCharacters(in: .whitespaces)
            .lowercased()
        return mediaType == "application/x-www-form-urlencoded"
    }

    /// The parameters of an `application/x-www-form-urlencoded` body. Throws 400
    /// `invalid_request` for another content type or a repeated parameter (RFC 6749 §3.2).
    static func form(from request: Request) async throws -> [String: String] {
        guard isForm(request) else {
            throw OAuthError.invalidRequest("This endpoint takes application/x-www-form-urlencoded bodies only.")
        }
        let data = try await body(of: request)
        do {
            return try FormURLEncoding.parse(String(decoding: data, as: UTF8.self))
        } catch let error as FormURLEncoding.DuplicateParameter {
            throw OAuthError.invalidRequest("The parameter `\(error.name)` is repeated.")
        }
    }

    /// The `Authorization` header split into its scheme, lower-cased, and its credentials,
    /// trimmed (empty when the header has none). Nil without a header or with a blank one.
    static func authorization(of request: Request) -> (scheme: String, credentials: String)? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let scheme = parts.first else { return nil }
        return (scheme.lowercased(), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
    }

    /// The access token of an `Authorization: Bearer` header (RFC 6750 §2.1).
    /// Throws 401 with a bare challenge when there is no Bearer credential, and 400
    /// `invalid_request` with a challenge when the header is malformed.
    static func bearerToken(of request: Request) throws -> String {
        guard let (scheme, token) = authorization(of: request), scheme == "bearer" else { throw OAuthError.missingBearer() }
        guard isB64Token(token) else {
            throw OAuthError.bearer(
                status: .badRequest,
                code: "invalid_request",
                description: "The Authorization header is malformed."
            )
        }
        return token
    }

    /// The access token of an `Authorization: Bearer` header, or nil when the request has no
    /// `Authorization` header or one of another scheme. Throws 400 `invalid_request` (with
    /// its challenge) when the Bearer header is malformed.
    static func optionalBearerToken(of request: Request) throws -> String? {
        guard authorization(of: request)?.scheme == "bearer" else { return nil }
        return try bearerToken(of: request)
    }

    /// `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="` (RFC 6750 §2.1).
    static func isB64Token(_ token: String) -> Bool {
        var trimmed = Substring(token)
        while trimmed.last == "=" { trimmed.removeLast() }
        guard !trimmed.isEmpty else { return false }
        return trimmed.allSatisfy { char in
            char.isASCII && (char.isLetter || char.isNumber || "-._~+/".contains(char))
        }
    }

    /// The client of a token request, authenticated by HTTP Basic (RFC 6749 §2.3.1: the id and
    /// secret are form-encoded inside Basic) or by `client_id` / `client_secret` in the body.
    /// Throws 401 `invalid_client` for a missing, unknown or wrong client, and 400
    /// `invalid_request` when both methods are used at once.
    static func authenticateClient(
        request: Request,
        form: [String: String],
        clients: [ReferenceServer.Client]
    ) throws -> ReferenceServer.Client {
        var presented: (id: String, secret: String?)?
        if let (scheme, credentials) = authorization(of: request), scheme == "basic" {
            guard let decoded = Data(base64Encoded: credentials),
                let text = String(data: decoded, encoding: .utf8),
                let colon = text.firstIndex(of: ":")
            else {
                throw OAuthError.invalidClient("The Basic credentials are malformed.")
            }
            let id = FormURLEncoding.decode(text[..<colon])
            let secret = FormURLEncoding.decode(text[text.index(after: colon)...])
            presented = (id, secret)
        }
        if let bodyID = form["client_id"] {
            if presented != nil, form["client_secret"] != nil {
                throw OAuthError.invalidRequest("The client authenticated in more than one way.")
            }
            if let presented, presented.id != bodyID {
                throw OAuthError.invalidRequest("`client_id` does not match the Basic credentials.")
            }
            if presented == nil { presented = (bodyID, form["client_secret"]) }
        } else if presented == nil, form["client_secret"] != nil {
            throw OAuthError.invalidRequest("`client_secret` needs `client_id`.")
        }
        guard let presented else { throw OAuthError.invalidClient("The client did not authenticate.") }
        guard let client = clients.first(where: { $0.id == presented.id }) else {
            throw OAuthError.invalidClient("The client is unknown.")
        }
        if let secret = client.secret {
            guard let given = presented.secret, ConstantTime.equals(given, secret) else {
                throw OAuthError.invalidClient("The client secret is wrong.")
            }
        }
        return client
    }
}
