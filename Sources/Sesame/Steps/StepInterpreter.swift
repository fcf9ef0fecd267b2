@_spi(Generated) import SesameDescription

/// How the runtime runs one kind of step (``AuthenticationStepDescription/Kind``): what comes
/// before the step's request, how that request names the client, and what the rest of the
/// sign-in must know of the kind. Each kind is one type in a file of its own (``RequestStep``,
/// ``BrowserStep``, ``DeviceStep``); ``AuthenticationStepDescription/Kind/interpreter`` is the
/// one place that asks which kind a step is. Internal.
protocol StepInterpreter: Sendable {
    /// Whether the step opens the configuration's browser: the service then opens a browser
    /// session before the step runs, which cancelling the sign-in closes at once.
    var opensBrowser: Bool { get }
    /// Whether the kind sends the app's ``AuthorizationParameters`` (`acr_values`, `max_age`, …).
    var takesAuthorizationParameters: Bool { get }
    /// How the step's own request names a public client.
    var clientNaming: RequestFactory.ClientNaming { get }
    /// What a sign-in cancelled while the step ran throws; nil for the service's own
    /// ``SesameError/authenticationProcess(reason:)``.
    var cancellationError: (any Error)? { get }
    /// Whether the step's token response carries an ID token to validate, given whether the
    /// app set its own `idTokenValidator`.
    func validatesIDToken(appValidator: Bool) -> Bool
    /// Runs the step of `process` in `service`: what comes before its request, then the request.
    /// - Parameters:
    ///   - step: the step to run.
    ///   - process: the process it belongs to; the kind's state lives in a copy of it.
    ///   - credential: the current credential, for steps that carry it.
    ///   - browser: the browser session opened for the step when ``opensBrowser``; nil otherwise.
    ///   - service: the service that sends the requests.
    /// - Returns: the response of the step's request.
    func run<Schema: SDKSchema>(
        _ step: AuthenticationStepDescription, of process: AuthenticationProcess, credential: Credential?,
        browser: BrowserSession?, in service: AuthenticationService<Schema>
    ) async throws -> JSONValue
}

extension StepInterpreter {
    var opensBrowser: Bool { false }
    var takesAuthorizationParameters: Bool { false }
    var cancellationError: (any Error)? { nil }
    func validatesIDToken(appValidator: Bool) -> Bool { false }
}

extension AuthenticationStepDescription.Kind {
    /// The interpreter of this kind.
    var interpreter: any StepInterpreter {
        switch self {
        case .request: RequestStep()
        case .browser(let authorization): BrowserStep(authorization: authorization)
        case .deviceAuthorization(let authorization): DeviceStep(authorization: authorization)
        }
    }
}

extension AuthenticationStepDescription {
    /// The interpreter of the step's kind.
    var interpreter: any StepInterpreter { kind.interpreter }
}

/// What a running step of one kind holds in its process: a case per kind that holds any.
/// Internal: it may hold secrets (a browser's code, a device code).
enum StepKindState: Sendable {
    case browser(BrowserGrant)
    case device(DeviceStepState)

    /// The value of a placeholder the kind provides to its step's token request; nil for any other.
    func value(of placeholder: Placeholder) -> JSONValue? {
        switch self {
        case .browser(let grant): grant.value(of: placeholder)
        case .device(let state): state.value(of: placeholder)
        }
    }

    /// What the app sees of it while the step runs; never a secret.
    var prompt: AuthenticationPrompt? {
        switch self {
        case .browser: nil
        case .device(let state): .deviceAuthorization(state.prompt)
        }
    }

    /// The kind's name, for logs and `dump`.
    var name: String {
        switch self {
        case .browser: "browser"
        case .device: "device"
        }
    }
}
