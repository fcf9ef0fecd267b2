@_spi(Generated) import SesameDescription

/// An `error` in the redirect of an authorization request (RFC 6749 §4.1.2.1), before the
/// service types it through the schema's error catalogue as it types the token endpoint's
/// errors. Internal: apps see the schema's `ServerError`.
struct AuthorizationErrorResponse: Error, Sendable, Hashable {
    /// `error`: `access_denied`, `login_required`, or a code of the server's own.
    var code: String
    /// `error_description`.
    var description: String?
    /// `error_uri`.
    var uri: String?

    /// The response the schema's typed error carries: the catalogue's category for a known
    /// code, `client` for another (it is about this request or this user, never a reason
    /// to retry on its own), and ``ServerErrorResponse/redirectStatus``.
    func response(catalogue: ErrorCatalogue) -> ServerErrorResponse {
        ServerErrorResponse(
            status: ServerErrorResponse.redirectStatus, code: code, message: description,
            category: catalogue.codes[code] ?? .client, uri: uri)
    }
}
