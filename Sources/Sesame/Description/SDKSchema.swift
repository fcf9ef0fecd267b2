import Foundation
@_spi(Generated) import SesameDescription

/// A generated SDK's schema: its description and the types it declares. The runtime is
/// generic over it, so each SDK gets typed details, errors and events.
public protocol SDKSchema: Sendable {
    /// The signed-in user's details (the response of the credential's `details` operation).
    associatedtype Details: Codable & Hashable & Sendable
    /// The typed error of the back-end's error catalogue; unknown codes are kept.
    associatedtype ServerError: Error & Sendable
    /// The typed events of the back-end's event catalogue; unknown events are kept.
    associatedtype Event: ServerEvent

    /// What the runtime needs to know about the back-end.
    @_spi(Generated) static var description: SDKDescription { get }
    /// The identifier of the user the details describe.
    static func userID(of details: Details) -> String
    /// The typed error for an error response.
    static func serverError(_ response: ServerErrorResponse) -> ServerError
    /// The ID token validator the schema's `openID:` describes, built with `settings`; nil
    /// for a schema without one (the default). An SDK whose schema declares `openID:`
    /// implements it with `SesameOpenID`'s `IDTokenValidator`, so that other SDKs never link
    /// a JOSE library.
    @_spi(Generated) static func idTokenValidator(_ settings: OpenIDValidatorSettings) -> (any IDTokenValidating)?
    /// The `sub` of an ID token the session keeps (validated when it was received), which the
    /// schema's UserInfo operation's response must repeat (OpenID Connect Core §5.3.2); nil
    /// for a schema without one (the default) or a token whose payload has no string `sub`.
    /// An SDK whose schema names `openID.userInfo` implements it with `SesameOpenID`'s JWT
    /// parser, so that the runtime parses no JOSE.
    @_spi(Generated) static func idTokenSubject(ofValidated idToken: String) -> String?
    /// The details of a session whose schema reads them from the ID token (`details: idToken`):
    /// the claims of `idToken` (validated when it was received) decoded into `Details`. An SDK
    /// whose schema says so implements it with `SesameOpenID`'s parser.
    /// - Throws: ``SesameError/decoding(operation:reason:)`` when the claims do not fit, naming
    ///   the claim's path only (never its value); the default, for every other schema, too.
    @_spi(Generated) static func details(fromValidatedIDToken idToken: String) throws -> Details
}

extension SDKSchema {
    /// No validator: the schema declares no `openID:`.
    @_spi(Generated) public static func idTokenValidator(_ settings: OpenIDValidatorSettings) -> (any IDTokenValidating)? {
        nil
    }

    /// No details from an ID token: the schema names a details operation.
    @_spi(Generated) public static func details(fromValidatedIDToken idToken: String) throws -> Details {
        throw SesameError.decoding(operation: "id_token", reason: "the schema reads the details from an operation, not the ID token")
    }

    /// No subject: the schema names no UserInfo operation.
    @_spi(Generated) public static func idTokenSubject(ofValidated idToken: String) -> String? {
        nil
    }
}

/// An event the back-end pushes, decoded from a server-sent event.
public protocol ServerEvent: Sendable, Hashable {
    /// Decodes an event. An event whose name the SDK does not know, or whose payload does
    /// not decode, gives the `unknown` case with the raw payload: events are never dropped.
    init(wireName: String, data: Data)
    /// The wire name of the event, as the back-end sends it.
    var wireName: String { get }
}

/// An error response from the back-end, read through the error catalogue's envelope.
public struct ServerErrorResponse: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status.
    public var status: Int
    /// The error code from the body, nil when the body has none.
    public var code: String?
    /// The human-readable message from the body, if any.
    public var message: String?
    /// The code's category from the catalogue, or one derived from the status.
    public var category: ErrorCategory
    /// A page about the error (`error_uri`, RFC 6749 §4.1.2.1), when an authorization
    /// response names one; nil otherwise.
    public var uri: String?

    public init(status: Int, code: String?, message: String?, category: ErrorCategory, uri: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.category = category
        self.uri = uri
    }

    /// The status of an error that came back in the redirect of an authorization request
    /// rather than in a response body (RFC 6749 §4.1.2.1: `302 Found`).
    public static let redirectStatus = 302

    /// `HTTP status code: message`, with the code and the message cut short so that a
    /// huge error body cannot flood a log.
    public var description: String {
        var text = "HTTP \(status)"
        if let code { text += " \(SchemaViolation.excerpt(code, limit: 64))" }
        if let message { text += ": \(SchemaViolation.excerpt(message, limit: 200))" }
        return text
    }
}
