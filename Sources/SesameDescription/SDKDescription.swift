import Foundation

/// Everything the runtime needs to know about one back-end, as its schema declares it.
///
/// The generator emits one of these for each SDK (`<SDK>Schema.description`); the runtime
/// reads it and never hard-codes a path, a field name or an OAuth rule of its own.
@_spi(Generated) public struct SDKDescription: Sendable, Hashable {
    /// The SDK's module name, such as `ReferenceSDK`.
    public var name: String
    /// The API's base URL; apps may override it when they create the service.
    public var baseURL: URL
    /// The authorization server's base URL (token, authorization and revocation endpoints)
    /// when the schema declares one apart from the API; nil when it is the API's own.
    /// Apps may override it when they create the service.
    public var authorizationBaseURL: URL?
    /// How the credential is read, applied, refreshed and recognised as rejected.
    public var credential: CredentialDescription
    /// Where error bodies keep their code and message, and each known code's category.
    public var errors: ErrorCatalogue
    /// The server-sent-events stream, when the back-end has one, and each event's effect.
    public var events: EventCatalogue
    /// The operations the authentication service itself calls.
    public var lifecycle: LifecycleDescription
    /// The authorization server's issuer, which authorization responses' `iss` must match;
    /// nil when the schema declares none (apps may set one at run time).
    public var authorizationIssuer: AuthorizationServerIssuer?
    /// OpenID Connect (sdk.yaml's `openID:`): the provider's keys and the ID token's
    /// validation; nil when the schema declares none.
    public var openID: OpenIDDescription?

    public init(
        name: String, baseURL: URL, authorizationBaseURL: URL? = nil, credential: CredentialDescription,
        errors: ErrorCatalogue, events: EventCatalogue, lifecycle: LifecycleDescription,
        authorizationIssuer: AuthorizationServerIssuer? = nil, openID: OpenIDDescription? = nil
    ) {
        self.name = name
        self.baseURL = baseURL
        self.authorizationBaseURL = authorizationBaseURL
        self.credential = credential
        self.errors = errors
        self.events = events
        self.lifecycle = lifecycle
        self.authorizationIssuer = authorizationIssuer
        self.openID = openID
    }

    /// The base URL requests declared for `server` go to; the authorization server's is
    /// the API's when the schema declares no authorization server of its own.
    public func baseURL(of server: ServerRole) -> URL {
        switch server {
        case .api: return baseURL
        case .authorization: return authorizationBaseURL ?? baseURL
        }
    }
}
