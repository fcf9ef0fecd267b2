@_spi(Generated) import SesameDescription

/// A whole schema folder, validated: what the renderer turns into Swift and what `diff`
/// compares.
public struct SDKIR: Sendable, Hashable {
    var name: String
    var description: String?
    var baseURL: String
    /// The authorization server's base URL (`authorizationServer.baseURL`); nil when the
    /// API's server is the authorization server too.
    var authorizationServerURL: String?
    /// The authorization server's issuer (`authorizationServer.issuer`), as the runtime
    /// reads it; nil when the schema declares none.
    var authorizationIssuer: IssuerDescription?
    var credential: CredentialIR
    var lifecycle: LifecycleIR
    var methods: [MethodIR]
    var operations: [OperationIR]
    /// Top-level models in name order, each with its nested types.
    var models: [ModelIR]
    var errors: ErrorsIR
    var events: EventsIR
    var store: StoreIR?
    /// The Swift names of the types the SDK itself declares; set by the naming pass.
    var typeNames: GeneratedTypeNamesIR

    init(
        name: String, description: String?, baseURL: String, credential: CredentialIR, lifecycle: LifecycleIR,
        methods: [MethodIR], operations: [OperationIR], models: [ModelIR], errors: ErrorsIR, events: EventsIR,
        store: StoreIR?, typeNames: GeneratedTypeNamesIR? = nil, authorizationServerURL: String? = nil,
        authorizationIssuer: IssuerDescription? = nil
    ) {
        self.name = name
        self.description = description
        self.baseURL = baseURL
        self.authorizationServerURL = authorizationServerURL
        self.authorizationIssuer = authorizationIssuer
        self.credential = credential
        self.lifecycle = lifecycle
        self.methods = methods
        self.operations = operations
        self.models = models
        self.errors = errors
        self.events = events
        self.store = store
        self.typeNames = typeNames ?? NamingPass.typeNames(sdkName: name, hasStore: store != nil)
    }
}

extension SDKIR {
    /// The base URL requests for `server` go to: the authorization server's is the API's
    /// when the schema declares none of its own.
    func baseURL(of server: ServerRole) -> String {
        server == .authorization ? authorizationServerURL ?? baseURL : baseURL
    }

    /// The operation a reference names, or nil when the SDK has none of that name.
    func operation(_ reference: OperationRef) -> OperationIR? {
        operations.first { $0.name == reference.name }
    }
}

struct TemplateFieldIR: Sendable, Hashable {
    var name: String
    var value: Template
    var location: SourceLocation

    init(name: String, value: Template, location: SourceLocation) {
        self.name = name
        self.value = value
        self.location = location
    }

    /// The field as the runtime reads it.
    var field: TemplateField { TemplateField(name: name, value: value) }
}

/// An HTTP request line: `POST /oauth/token`.
struct RequestLineIR: Sendable, Hashable {
    var method: RequestMethod
    var path: String
    /// The `{names}` in the path, in order.
    var pathParameters: [String]
    var location: SourceLocation
    /// The server it goes to: the request's `server` key, or its kind's default.
    var server: ServerRole

    init(
        method: RequestMethod, path: String, pathParameters: [String], location: SourceLocation, server: ServerRole = .api
    ) {
        self.method = method
        self.path = path
        self.pathParameters = pathParameters
        self.location = location
        self.server = server
    }
}

struct CredentialIR: Sendable, Hashable {
    /// The model of a token response; nil when sdk.yaml names none that exists (an error).
    var tokenModel: ModelRef?
    var accessTokenField: String
    var refreshTokenField: String?
    var expiresInField: String?
    var header: String
    var format: Template
    var refresh: RefreshIR?
    var rejection: RejectionRule
    /// The operation that returns the user's details (nil when sdk.yaml names none that
    /// exists, an error), and the details' id property.
    var detailsOperation: OperationRef?
    var userIDField: String
    var location: SourceLocation

    init(
        tokenModel: ModelRef?, accessTokenField: String, refreshTokenField: String?, expiresInField: String?,
        header: String, format: Template, refresh: RefreshIR?, rejection: RejectionRule,
        detailsOperation: OperationRef?, userIDField: String, location: SourceLocation
    ) {
        self.tokenModel = tokenModel
        self.accessTokenField = accessTokenField
        self.refreshTokenField = refreshTokenField
        self.expiresInField = expiresInField
        self.header = header
        self.format = format
        self.refresh = refresh
        self.rejection = rejection
        self.detailsOperation = detailsOperation
        self.userIDField = userIDField
        self.location = location
    }
}

/// `credential.refresh`: the runtime's description, and where the schema wrote its request.
struct RefreshIR: Sendable, Hashable {
    var value: RefreshDescription
    var requestLocation: SourceLocation
}

/// The operations the authentication service itself calls.
struct LifecycleIR: Sendable, Hashable {
    var signOut: OperationRef?
    var detachIdentity: OperationRef?
    var destroyAccount: OperationRef?
    /// The RFC 7009 revocation request sent at sign-out (`lifecycle.revoke`).
    var revocation: RevocationIR?

    init(
        signOut: OperationRef? = nil, detachIdentity: OperationRef? = nil, destroyAccount: OperationRef? = nil,
        revocation: RevocationIR? = nil
    ) {
        self.signOut = signOut
        self.detachIdentity = detachIdentity
        self.destroyAccount = destroyAccount
        self.revocation = revocation
    }
}

/// `lifecycle.revoke`: the runtime's description of the RFC 7009 request, where the schema
/// wrote `revoke`, and where its request line.
struct RevocationIR: Sendable, Hashable {
    var value: RevocationDescription
    var location: SourceLocation
    var requestLocation: SourceLocation
}

/// The browser part of a step (`browser:`): the authorization request of the authorization
/// code grant with PKCE, opened before the step's token request.
struct BrowserStepIR: Sendable, Hashable {
    /// A GET request line, by default on the authorization server.
    var request: RequestLineIR
    var redirectURI: String
    /// Extra query parameters, templates of the method's parameters.
    var parameters: [TemplateFieldIR]
    var location: SourceLocation

    init(request: RequestLineIR, redirectURI: String, parameters: [TemplateFieldIR], location: SourceLocation) {
        self.request = request
        self.redirectURI = redirectURI
        self.parameters = parameters
        self.location = location
    }

}

/// The device part of a step (`device:`): the device authorization request (RFC 8628 §3.1)
/// sent before the step's token request is polled.
struct DeviceStepIR: Sendable, Hashable {
    /// A POST request line, by default on the authorization server, form-encoded, with the
    /// step's client authentication.
    var request: RequestLineIR
    /// Extra form parameters, templates of the method's parameters.
    var parameters: [TemplateFieldIR]
    var location: SourceLocation

    init(request: RequestLineIR, parameters: [TemplateFieldIR], location: SourceLocation) {
        self.request = request
        self.parameters = parameters
        self.location = location
    }
}

/// A parameter of a method, a step's `needs`, or an operation.
struct ParameterIR: Sendable, Hashable {
    enum Location: String, Sendable, Hashable { case argument, path, query }
    var name: String
    /// The Swift argument label and variable; set by the naming pass.
    var swiftName: String
    var location: Location
    var type: TypeIR
    var required: Bool
    var defaultValue: LiteralIR?
    var constraints: ConstraintsIR
    var description: String?
    /// Never shown in descriptions or logs.
    var secret: Bool
    var sourceLocation: SourceLocation

    init(
        name: String, swiftName: String = "", location: Location, type: TypeIR, required: Bool, defaultValue: LiteralIR?,
        constraints: ConstraintsIR, description: String?, secret: Bool, sourceLocation: SourceLocation
    ) {
        self.name = name
        self.swiftName = swiftName
        self.location = location
        self.type = type
        self.required = required
        self.defaultValue = defaultValue
        self.constraints = constraints
        self.description = description
        self.secret = secret
        self.sourceLocation = sourceLocation
    }
}

struct StepIR: Sendable, Hashable {
    var name: String
    var request: RequestLineIR
    var encoding: BodyEncoding
    var clientAuthentication: ClientAuthentication
    var needs: [ParameterIR]
    var body: [TemplateFieldIR]
    /// The model the step's response decodes to.
    var response: ModelRef?
    /// The `AuthenticationInput` case of a later step of a multi-step method (nil for a
    /// first step); set by the naming pass.
    var inputCaseName: String?
    var location: SourceLocation
    /// The authorization request opened in a browser before `request`; nil for a plain step.
    var browser: BrowserStepIR?
    /// The device authorization request sent before `request` is polled; nil for other steps.
    var device: DeviceStepIR?

    init(
        name: String, request: RequestLineIR, encoding: BodyEncoding, clientAuthentication: ClientAuthentication,
        needs: [ParameterIR], body: [TemplateFieldIR], response: ModelRef?, inputCaseName: String? = nil,
        location: SourceLocation, browser: BrowserStepIR? = nil, device: DeviceStepIR? = nil
    ) {
        self.browser = browser
        self.device = device
        self.name = name
        self.request = request
        self.encoding = encoding
        self.clientAuthentication = clientAuthentication
        self.needs = needs
        self.body = body
        self.response = response
        self.inputCaseName = inputCaseName
        self.location = location
    }
}

struct MethodIR: Sendable, Hashable {
    var name: String
    /// The case of `SingleStepMethod` or `MultiStepMethod`; set by the naming pass.
    var swiftName: String
    var description: String?
    var parameters: [ParameterIR]
    var steps: [StepIR]
    var location: SourceLocation

    init(
        name: String, swiftName: String = "", description: String?, parameters: [ParameterIR], steps: [StepIR], location: SourceLocation
    ) {
        self.name = name
        self.swiftName = swiftName
        self.description = description
        self.parameters = parameters
        self.steps = steps
        self.location = location
    }

    var isMultiStep: Bool { steps.count > 1 }
}

struct OperationIR: Sendable, Hashable {
    var name: String
    /// The Swift name of the operation's method and request; set by the naming pass.
    var swiftName: String
    var description: String?
    var request: RequestLineIR
    var parameters: [ParameterIR]
    var body: TypeIR?
    var encoding: BodyEncoding
    var response: TypeIR?
    var authenticated: Bool
    var freshAuthentication: DurationIR?
    var deprecated: Bool
    var location: SourceLocation

    init(
        name: String, swiftName: String = "", description: String?, request: RequestLineIR, parameters: [ParameterIR],
        body: TypeIR?, encoding: BodyEncoding, response: TypeIR?, authenticated: Bool,
        freshAuthentication: DurationIR?, deprecated: Bool, location: SourceLocation
    ) {
        self.name = name
        self.swiftName = swiftName
        self.description = description
        self.request = request
        self.parameters = parameters
        self.body = body
        self.encoding = encoding
        self.response = response
        self.authenticated = authenticated
        self.freshAuthentication = freshAuthentication
        self.deprecated = deprecated
        self.location = location
    }
}

struct ErrorsIR: Sendable, Hashable {
    var codeField: String
    var messageField: String?
    var errors: [ErrorIR]

    init(codeField: String, messageField: String?, errors: [ErrorIR]) {
        self.codeField = codeField
        self.messageField = messageField
        self.errors = errors
    }
}

struct ErrorIR: Sendable, Hashable {
    var code: String
    /// The case of `<SDK>Error`; set by the naming pass.
    var swiftName: String
    var status: Int
    var category: ErrorCategory
    var description: String?
    var location: SourceLocation

    init(
        code: String, swiftName: String = "", status: Int, category: ErrorCategory, description: String?, location: SourceLocation
    ) {
        self.code = code
        self.swiftName = swiftName
        self.status = status
        self.category = category
        self.description = description
        self.location = location
    }
}

struct EventsIR: Sendable, Hashable {
    var stream: RequestLineIR?
    var events: [EventIR]

    init(stream: RequestLineIR?, events: [EventIR]) {
        self.stream = stream
        self.events = events
    }
}

enum EventEffectIR: String, Sendable, Hashable {
    case invalidate
}

struct EventIR: Sendable, Hashable {
    var name: String
    /// The case of `<SDK>Event`; set by the naming pass.
    var swiftName: String
    var wireName: String
    var description: String?
    var payload: TypeIR?
    var effect: EventEffectIR?
    var location: SourceLocation

    init(
        name: String, swiftName: String = "", wireName: String, description: String?, payload: TypeIR?,
        effect: EventEffectIR?, location: SourceLocation
    ) {
        self.name = name
        self.swiftName = swiftName
        self.wireName = wireName
        self.description = description
        self.payload = payload
        self.effect = effect
        self.location = location
    }
}
