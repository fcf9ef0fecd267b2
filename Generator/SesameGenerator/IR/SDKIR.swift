import SesameDescription

/// A whole schema folder, validated: what the renderer turns into Swift and what `diff`
/// compares.
public struct SDKIR: Sendable, Hashable {
    public var name: String
    public var description: String?
    public var baseURL: String
    /// The authorization server's base URL (`authorizationServer.baseURL`); nil when the
    /// API's server is the authorization server too.
    public var authorizationServerURL: String?
    public var credential: CredentialIR
    public var lifecycle: LifecycleIR
    public var methods: [MethodIR]
    public var operations: [OperationIR]
    /// Top-level models in name order, each with its nested types.
    public var models: [ModelIR]
    public var errors: ErrorsIR
    public var events: EventsIR
    public var store: StoreIR?
    /// The Swift names of the types the SDK itself declares; set by the naming pass.
    public var typeNames: GeneratedTypeNamesIR

    public init(
        name: String, description: String?, baseURL: String, credential: CredentialIR, lifecycle: LifecycleIR,
        methods: [MethodIR], operations: [OperationIR], models: [ModelIR], errors: ErrorsIR, events: EventsIR,
        store: StoreIR?, typeNames: GeneratedTypeNamesIR? = nil, authorizationServerURL: String? = nil
    ) {
        self.name = name
        self.description = description
        self.baseURL = baseURL
        self.authorizationServerURL = authorizationServerURL
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
    public func baseURL(of server: ServerRole) -> String {
        server == .authorization ? authorizationServerURL ?? baseURL : baseURL
    }

    /// The operation a reference names, or nil when the SDK has none of that name.
    public func operation(_ reference: OperationRef) -> OperationIR? {
        operations.first { $0.name == reference.name }
    }
}

public struct TemplateFieldIR: Sendable, Hashable {
    public var name: String
    public var value: Template
    public var location: SourceLocation

    public init(name: String, value: Template, location: SourceLocation) {
        self.name = name
        self.value = value
        self.location = location
    }

    /// The field as the runtime reads it.
    public var field: TemplateField { TemplateField(name: name, value: value) }
}

/// An HTTP request line: `POST /oauth/token`.
public struct RequestLineIR: Sendable, Hashable {
    public var method: RequestMethod
    public var path: String
    /// The `{names}` in the path, in order.
    public var pathParameters: [String]
    public var location: SourceLocation
    /// The server it goes to: the request's `server` key, or its kind's default.
    public var server: ServerRole

    public init(
        method: RequestMethod, path: String, pathParameters: [String], location: SourceLocation, server: ServerRole = .api
    ) {
        self.method = method
        self.path = path
        self.pathParameters = pathParameters
        self.location = location
        self.server = server
    }
}

public struct CredentialIR: Sendable, Hashable {
    /// The model of a token response; nil when sdk.yaml names none that exists (an error).
    public var tokenModel: ModelRef?
    public var accessTokenField: String
    public var refreshTokenField: String?
    public var expiresInField: String?
    public var header: String
    public var format: Template
    public var refresh: RefreshIR?
    public var rejection: RejectionRule
    /// The operation that returns the user's details (nil when sdk.yaml names none that
    /// exists, an error), and the details' id property.
    public var detailsOperation: OperationRef?
    public var userIDField: String
    public var location: SourceLocation

    public init(
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

public struct RefreshIR: Sendable, Hashable {
    public var request: RequestLineIR
    public var encoding: BodyEncoding
    public var clientAuthentication: ClientAuthentication
    public var fields: [TemplateFieldIR]
    public var leeway: DurationIR
    public var maxRefreshes: Int
    public var window: DurationIR

    public init(
        request: RequestLineIR, encoding: BodyEncoding, clientAuthentication: ClientAuthentication,
        fields: [TemplateFieldIR], leeway: DurationIR, maxRefreshes: Int, window: DurationIR
    ) {
        self.request = request
        self.encoding = encoding
        self.clientAuthentication = clientAuthentication
        self.fields = fields
        self.leeway = leeway
        self.maxRefreshes = maxRefreshes
        self.window = window
    }
}

/// The operations the authentication service itself calls.
public struct LifecycleIR: Sendable, Hashable {
    public var signOut: OperationRef?
    public var detachIdentity: OperationRef?
    public var destroyAccount: OperationRef?
    /// The RFC 7009 revocation request sent at sign-out (`lifecycle.revoke`).
    public var revocation: RevocationIR?

    public init(
        signOut: OperationRef? = nil, detachIdentity: OperationRef? = nil, destroyAccount: OperationRef? = nil,
        revocation: RevocationIR? = nil
    ) {
        self.signOut = signOut
        self.detachIdentity = detachIdentity
        self.destroyAccount = destroyAccount
        self.revocation = revocation
    }
}

/// `lifecycle.revoke`: a token revocation request (RFC 7009), by default on the
/// authorization server, form-encoded.
public struct RevocationIR: Sendable, Hashable {
    public var request: RequestLineIR
    public var encoding: BodyEncoding
    public var clientAuthentication: ClientAuthentication
    public var fields: [TemplateFieldIR]
    public var location: SourceLocation

    public init(
        request: RequestLineIR, encoding: BodyEncoding, clientAuthentication: ClientAuthentication, fields: [TemplateFieldIR],
        location: SourceLocation
    ) {
        self.request = request
        self.encoding = encoding
        self.clientAuthentication = clientAuthentication
        self.fields = fields
        self.location = location
    }
}

/// The browser part of a step (`browser:`): the authorization request of the authorization
/// code grant with PKCE, opened before the step's token request.
public struct BrowserStepIR: Sendable, Hashable {
    /// A GET request line, by default on the authorization server.
    public var request: RequestLineIR
    public var redirectURI: String
    /// Extra query parameters, templates of the method's parameters.
    public var parameters: [TemplateFieldIR]
    public var location: SourceLocation

    public init(request: RequestLineIR, redirectURI: String, parameters: [TemplateFieldIR], location: SourceLocation) {
        self.request = request
        self.redirectURI = redirectURI
        self.parameters = parameters
        self.location = location
    }

}

/// The device part of a step (`device:`): the device authorization request (RFC 8628 §3.1)
/// sent before the step's token request is polled.
public struct DeviceStepIR: Sendable, Hashable {
    /// A POST request line, by default on the authorization server, form-encoded, with the
    /// step's client authentication.
    public var request: RequestLineIR
    /// Extra form parameters, templates of the method's parameters.
    public var parameters: [TemplateFieldIR]
    public var location: SourceLocation

    public init(request: RequestLineIR, parameters: [TemplateFieldIR], location: SourceLocation) {
        self.request = request
        self.parameters = parameters
        self.location = location
    }
}

/// A parameter of a method, a step's `needs`, or an operation.
public struct ParameterIR: Sendable, Hashable {
    public enum Location: String, Sendable, Hashable { case argument, path, query }
    public var name: String
    /// The Swift argument label and variable; set by the naming pass.
    public var swiftName: String
    public var location: Location
    public var type: TypeIR
    public var required: Bool
    public var defaultValue: LiteralIR?
    public var constraints: ConstraintsIR
    public var description: String?
    /// Never shown in descriptions or logs.
    public var secret: Bool
    public var sourceLocation: SourceLocation

    public init(
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

public struct StepIR: Sendable, Hashable {
    public var name: String
    public var request: RequestLineIR
    public var encoding: BodyEncoding
    public var clientAuthentication: ClientAuthentication
    public var needs: [ParameterIR]
    public var body: [TemplateFieldIR]
    /// The model the step's response decodes to.
    public var response: ModelRef?
    /// The `AuthenticationInput` case of a later step of a multi-step method (nil for a
    /// first step); set by the naming pass.
    public var inputCaseName: String?
    public var location: SourceLocation
    /// The authorization request opened in a browser before `request`; nil for a plain step.
    public var browser: BrowserStepIR?
    /// The device authorization request sent before `request` is polled; nil for other steps.
    public var device: DeviceStepIR?

    public init(
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

public struct MethodIR: Sendable, Hashable {
    public var name: String
    /// The case of `SingleStepMethod` or `MultiStepMethod`; set by the naming pass.
    public var swiftName: String
    public var description: String?
    public var parameters: [ParameterIR]
    public var steps: [StepIR]
    public var location: SourceLocation

    public init(
        name: String, swiftName: String = "", description: String?, parameters: [ParameterIR], steps: [StepIR], location: SourceLocation
    ) {
        self.name = name
        self.swiftName = swiftName
        self.description = description
        self.parameters = parameters
        self.steps = steps
        self.location = location
    }

    public var isMultiStep: Bool { steps.count > 1 }
}

public struct OperationIR: Sendable, Hashable {
    public var name: String
    /// The Swift name of the operation's method and request; set by the naming pass.
    public var swiftName: String
    public var description: String?
    public var request: RequestLineIR
    public var parameters: [ParameterIR]
    public var body: TypeIR?
    public var encoding: BodyEncoding
    public var response: TypeIR?
    public var authenticated: Bool
    public var freshAuthentication: DurationIR?
    public var deprecated: Bool
    public var location: SourceLocation

    public init(
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

public struct ErrorsIR: Sendable, Hashable {
    public var codeField: String
    public var messageField: String?
    public var errors: [ErrorIR]

    public init(codeField: String, messageField: String?, errors: [ErrorIR]) {
        self.codeField = codeField
        self.messageField = messageField
        self.errors = errors
    }
}

public struct ErrorIR: Sendable, Hashable {
    public var code: String
    /// The case of `<SDK>Error`; set by the naming pass.
    public var swiftName: String
    public var status: Int
    public var category: ErrorCategory
    public var description: String?
    public var location: SourceLocation

    public init(
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

public struct EventsIR: Sendable, Hashable {
    public var stream: RequestLineIR?
    public var events: [EventIR]

    public init(stream: RequestLineIR?, events: [EventIR]) {
        self.stream = stream
        self.events = events
    }
}

public enum EventEffectIR: String, Sendable, Hashable {
    case invalidate
}

public struct EventIR: Sendable, Hashable {
    public var name: String
    /// The case of `<SDK>Event`; set by the naming pass.
    public var swiftName: String
    public var wireName: String
    public var description: String?
    public var payload: TypeIR?
    public var effect: EventEffectIR?
    public var location: SourceLocation

    public init(
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
