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
    var authorizationIssuer: AuthorizationServerIssuer?
    /// OpenID Connect (`openID:`); nil when the schema declares none.
    var openID: OpenIDIR?
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
    /// sdk.yaml's `models` options (closed enums, formats as annotations), for `sesame diff`.
    var modelOptions: ModelOptions

    init(
        name: String, description: String?, baseURL: String, credential: CredentialIR, lifecycle: LifecycleIR,
        methods: [MethodIR], operations: [OperationIR], models: [ModelIR], errors: ErrorsIR, events: EventsIR,
        store: StoreIR?, typeNames: GeneratedTypeNamesIR? = nil, authorizationServerURL: String? = nil,
        authorizationIssuer: AuthorizationServerIssuer? = nil, openID: OpenIDIR? = nil, modelOptions: ModelOptions = ModelOptions()
    ) {
        self.modelOptions = modelOptions
        self.openID = openID
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

/// A request the schema declares (`POST /oauth/token`): the runtime's description, with
/// the generator's additions.
struct RequestLineIR: Sendable, Hashable {
    /// What the runtime reads: name, method, path, server, and what the request's kind adds
    /// (authentication, encoding, client authentication), set by the translator that reads it.
    var value: RequestDescription
    /// The `{names}` in the path, in order.
    var pathParameters: [String]
    /// Where the schema wrote the request line.
    var location: SourceLocation
}

/// `credential`: the runtime's description, with the references it replaces by values
/// and where the schema wrote it.
struct CredentialIR: Sendable, Hashable {
    /// What the runtime reads. Its `details` is the request of ``detailsOperation`` (a
    /// placeholder `GET /` when sdk.yaml names none that exists, an error), nil with
    /// `details: idToken`.
    var value: CredentialDescription
    /// The model of a token response; nil when sdk.yaml names none that exists (an error).
    var tokenModel: ModelRef?
    /// The operation that returns the user's details; nil when sdk.yaml names none that
    /// exists (an error).
    var detailsOperation: OperationRef?
    /// The claims model when the details are the ID token's claims (`details: idToken`), and
    /// where sdk.yaml wrote `idToken`; nil otherwise.
    var detailsClaims: ModelRef? = nil
    var detailsClaimsLocation: SourceLocation? = nil
    /// Where the schema wrote `credential`, and the refresh's request line (nil without a refresh).
    var location: SourceLocation
    var refreshRequestLocation: SourceLocation?
}

/// `lifecycle`: the runtime's description of the operations the authentication service
/// itself calls, with the references it replaces by values and where the schema wrote
/// `revoke`.
struct LifecycleIR: Sendable, Hashable {
    /// What the runtime reads: each operation's request, and the RFC 7009 revocation.
    var value = LifecycleDescription()
    var signOut: OperationRef?
    var detachIdentity: OperationRef?
    var destroyAccount: OperationRef?
    /// Where the schema wrote `revoke`, and its request line; nil without one.
    var revocationLocation: SourceLocation?
    var revocationRequestLocation: SourceLocation?
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
    var defaultValue: JSONValue?
    var constraints: ConstraintsIR
    var description: String?
    /// Never shown in descriptions or logs.
    var secret: Bool
    var sourceLocation: SourceLocation

    init(
        name: String, swiftName: String = "", location: Location, type: TypeIR, required: Bool, defaultValue: JSONValue?,
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

/// A step of a method: the runtime's description, with the types of its needs, its
/// response model, its Swift name and where the schema wrote it.
struct StepIR: Sendable, Hashable {
    /// What the runtime reads: name, needs, kind (and its browser or device request),
    /// request and body.
    var value: AuthenticationStepDescription
    /// Each of `value.needs`, in order, with its type and Swift name.
    var needs: [ParameterIR]
    /// The model the step's response decodes to.
    var response: ModelRef?
    /// The `AuthenticationInput` case of a later step of a multi-step method (nil for a
    /// first step); set by the naming pass.
    var inputCaseName: String?
    /// Where the schema wrote the step, its request line, and its `browser:` or `device:`
    /// (nil for a plain request step).
    var location: SourceLocation
    var requestLocation: SourceLocation
    var kindLocation: SourceLocation?
    /// Where a browser or device step wrote `openID: true`; nil when it is no OpenID Connect sign-in.
    var openIDLocation: SourceLocation?

    init(
        value: AuthenticationStepDescription, needs: [ParameterIR], response: ModelRef?, inputCaseName: String? = nil,
        location: SourceLocation, requestLocation: SourceLocation, kindLocation: SourceLocation? = nil,
        openIDLocation: SourceLocation? = nil
    ) {
        self.openIDLocation = openIDLocation
        self.value = value
        self.needs = needs
        self.response = response
        self.inputCaseName = inputCaseName
        self.location = location
        self.requestLocation = requestLocation
        self.kindLocation = kindLocation
    }

    var name: String { value.name }
}

/// An authentication method. Its runtime description is its name and its steps'
/// descriptions (``runtimeDescription``); holding it too would hold every step twice.
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

    /// The description the generated `Methods.<method>` declares.
    var runtimeDescription: AuthenticationMethodDescription {
        AuthenticationMethodDescription(name: name, steps: steps.map(\.value))
    }
}

/// An operation: its request's description (with its encoding, authentication and fresh
/// authentication), and its Swift name, parameters, body and response types.
struct OperationIR: Sendable, Hashable {
    var name: String
    /// The Swift name of the operation's method and request; set by the naming pass.
    var swiftName: String
    var description: String?
    /// What the runtime reads (the generated `Requests.<operation>`), and where.
    var request: RequestLineIR
    var parameters: [ParameterIR]
    var body: TypeIR?
    var response: TypeIR?
    var deprecated: Bool
    var location: SourceLocation

    init(
        name: String, swiftName: String = "", description: String?, request: RequestLineIR, parameters: [ParameterIR],
        body: TypeIR?, response: TypeIR?, deprecated: Bool, location: SourceLocation
    ) {
        self.name = name
        self.swiftName = swiftName
        self.description = description
        self.request = request
        self.parameters = parameters
        self.body = body
        self.response = response
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
