import Foundation
@_spi(Generated) import SesameDescription

/// A device step (``AuthenticationStepDescription/Kind/deviceAuthorization(_:)``, RFC 8628):
/// the device authorization request, whose user code the app shows
/// (``OngoingAuthentication/deviceAuthorization``), then the step's request, the token
/// request, polled until the user answers. A sign-in cancelled meanwhile stops polling and
/// fails with ``DeviceAuthorizationError/cancelled``.
struct DeviceStep: StepInterpreter {
    var authorization: DeviceAuthorization

    /// The token request is an OAuth token request: a public client names itself (RFC 8628 §3.4).
    var clientNaming: RequestFactory.ClientNaming { .publicClientToo }

    func run<Schema: SDKSchema>(
        _ step: AuthenticationStepDescription, of process: AuthenticationProcess, credential: Credential?,
        browser: BrowserSession?, in service: AuthenticationService<Schema>
    ) async throws -> JSONValue {
        let response = try await service.authorizeDevice(authorization, step: step, of: process, credential: credential)
        // RFC 8628 sends no nonce: none is checked (the signature, issuer, audience and times are).
        try await service.checkIDToken(in: response, of: step, nonce: nil)
        return response
    }

    /// A step the schema marks `openID: true`. The app's own `idTokenValidator` does not make
    /// every device sign-in an OpenID Connect one: a device grant without `openid` in its
    /// scope returns no ID token.
    func validatesIDToken(appValidator: Bool) -> Bool { authorization.openID }
}

/// What a running device step holds in its process: the prompt the app sees, and, in the
/// copy of the process that polls the token request only, the device code (a secret until
/// the user approves).
struct DeviceStepState: Sendable {
    var prompt: DeviceAuthorizationPrompt
    var deviceCode: String?

    /// The value of a placeholder the device authorization provides to the token request;
    /// nil for any other.
    func value(of placeholder: Placeholder) -> JSONValue? {
        if case .deviceCode = placeholder { return deviceCode.map { .string($0) } }
        return nil
    }
}

extension SignInMachine {
    /// Process `id`'s running device step got its user code: the app sees it in
    /// ``ongoing`` until the step answers.
    /// - Returns: whether the process still runs that step (false: cancelled or replaced).
    mutating func deviceAuthorized(_ prompt: DeviceAuthorizationPrompt, id: UInt64) -> Bool {
        stepProgressed(.device(DeviceStepState(prompt: prompt)), id: id)
    }
}

extension OngoingAuthentication {
    /// What to show the user while a device step (RFC 8628) waits for them to sign in on
    /// another device: the user code and where to enter it. Nil for any other step, and
    /// before the device authorization endpoint answered.
    public var deviceAuthorization: DeviceAuthorizationPrompt? {
        if case .deviceAuthorization(let prompt) = prompt { return prompt }
        return nil
    }
}

extension AuthenticationService {
    /// Runs a device step (RFC 8628): posts its device authorization request, hands the app
    /// the user code (``AuthenticationEvent/deviceAuthorization(_:)`` and
    /// ``ongoingAuthentication``), then sends the step's token request with the device code
    /// every `interval` until it succeeds.
    ///
    /// `authorization_pending` keeps polling, `slow_down` adds 5 seconds to the interval
    /// (§3.5); polling stops at the code's expiry, when the app cancels the sign-in, and when
    /// the awaiting task is cancelled (a poll in flight then ends as `.cancelled` too). The
    /// verification URIs are checked before the app sees them (``DeviceVerificationURI``), and
    /// the interval is never below ``DeviceAuthorizationAnswer/minimumInterval``.
    /// - Returns: the token request's response.
    /// - Throws: ``DeviceAuthorizationError`` (denied, expired, cancelled);
    ///   ``SesameError/decoding(operation:reason:)`` for a malformed device authorization
    ///   answer; the back-end's error for any other refusal. Nothing changes the state.
    func authorizeDevice(
        _ device: DeviceAuthorization, step: AuthenticationStepDescription, of process: AuthenticationProcess,
        credential: Credential?
    ) async throws -> JSONValue {
        let answer = try await requestDeviceAuthorization(device, of: process)
        guard signIn.deviceAuthorized(answer.prompt, id: process.id) else { throw DeviceAuthorizationError.cancelled }
        logger.info("waiting for the user to approve the device sign-in", metadata: ["step": "\(step.request.name)"])
        broadcaster.broadcast(.deviceAuthorization(answer.prompt), logger: logger)
        // The device code lives in this copy only, for the token request's body.
        var polling = process
        polling.kindState = .device(DeviceStepState(prompt: answer.prompt, deviceCode: answer.deviceCode))
        var interval = answer.prompt.interval
        while true {
            do {
                try await configuration.sleep(interval)
            } catch {
                throw DeviceAuthorizationError.cancelled
            }
            guard !Task.isCancelled, signIn.isRunning(id: process.id) else { throw DeviceAuthorizationError.cancelled }
            guard now() < answer.prompt.expiresAt else { throw DeviceAuthorizationError.expired }
            do {
                return try await sendStepRequest(step, of: polling, credential: credential)
            } catch _ where Task.isCancelled || !signIn.isRunning(id: process.id) {
                // Cancelled while the poll was on the wire: whatever the request threw (a
                // transport error, `CancellationError`), the sign-in was cancelled.
                throw DeviceAuthorizationError.cancelled
            } catch let error as BackEndError {
                switch error.response.code {
                case "authorization_pending":
                    continue
                case "slow_down":
                    interval += DeviceAuthorization.slowDownIncrement
                    logger.info("the authorization server asked to poll more slowly", metadata: ["interval": "\(interval)"])
                case "access_denied":
                    throw DeviceAuthorizationError.accessDenied
                case "expired_token":
                    throw DeviceAuthorizationError.expired
                default:
                    throw error
                }
            }
        }
    }

    /// Posts the device authorization request: the step's parameters, `client_id`, and the
    /// request's client authentication.
    private nonisolated func requestDeviceAuthorization(
        _ device: DeviceAuthorization, of process: AuthenticationProcess
    ) async throws -> DeviceAuthorizationAnswer {
        // Every client names itself in the body (RFC 8628 §3.1): RequestFactory adds it.
        let body: RequestBody
        do {
            body = try RequestFactory.body(
                fields: device.parameters, for: device.request, client: configuration.client, naming: .always
            ) {
                process.value(of: $0, credential: nil)
            }
        } catch let error as TemplateError {
            throw SesameError.encoding(reason: error.description)
        }
        let response = try await send(OperationRequest(device.request, body: body), credential: .none)
        let json = try TokenResponseReader.json(response.body, operation: device.request.name)
        return try DeviceAuthorizationAnswer(json, operation: device.request.name, now: now(), defaultInterval: device.defaultInterval)
    }
}

/// The device authorization endpoint's answer (RFC 8628 §3.2). Internal: the device code is
/// the client's secret.
struct DeviceAuthorizationAnswer: Sendable {
    var deviceCode: String
    var prompt: DeviceAuthorizationPrompt

    /// The shortest interval between polls, whatever the server or the schema says: RFC 8628's
    /// default of 5 seconds. A shorter `interval` is raised to it (a server asking for polls
    /// every 0.1 ms would otherwise get thousands a minute from every waiting device).
    static let minimumInterval: Duration = .seconds(5)

    /// Reads the answer received at `now`.
    /// - Throws: ``SesameError/decoding(operation:reason:)`` naming the first missing or
    ///   malformed field.
    init(_ json: JSONValue, operation: String, now: Date, defaultInterval: Duration) throws {
        func fail(_ field: String, _ problem: String) -> SesameError {
            .decoding(operation: operation, reason: "$.\(field): \(problem)")
        }
        func string(_ field: String) throws -> String {
            guard let value = json[field]?.stringValue, !value.isEmpty else { throw fail(field, "required property is missing") }
            return value
        }
        func seconds(_ field: String) throws -> Double? {
            guard let value = json[field], value != .null else { return nil }
            let seconds: Double? =
                switch value {
                case .integer(let integer): Double(integer)
                case .number(let number): number
                default: nil
                }
            guard let seconds, seconds > 0, seconds <= 86_400 else { throw fail(field, "expected a positive number of seconds") }
            return seconds
        }
        deviceCode = try string("device_code")
        let userCode = try string("user_code")
        // The app opens these or shows them as a QR code: only a web page the user can trust.
        func checkedURI(_ field: String, _ text: String) throws -> URL {
            guard let url = DeviceVerificationURI.url(text) else {
                throw fail(field, "expected an https URL (http on loopback only) without user or password")
            }
            return url
        }
        let verificationURI = try checkedURI("verification_uri", try string("verification_uri"))
        var complete: URL?
        if let value = json["verification_uri_complete"], value != .null {
            guard let text = value.stringValue else { throw fail("verification_uri_complete", "expected a string") }
            complete = try checkedURI("verification_uri_complete", text)
        }
        guard let expiresIn = try seconds("expires_in") else { throw fail("expires_in", "required property is missing") }
        let interval = max(try seconds("interval").map { Duration.seconds($0) } ?? defaultInterval, Self.minimumInterval)
        prompt = DeviceAuthorizationPrompt(
            userCode: userCode, verificationURI: verificationURI, verificationURIComplete: complete,
            expiresAt: now.addingTimeInterval(expiresIn), interval: interval)
    }
}

/// The rule for the URIs of a device authorization answer (`verification_uri`,
/// `verification_uri_complete`, RFC 8628 §3.2), which the app opens or shows: an absolute
/// `https` URL with a host and without user or password, or `http` to a loopback host
/// (`localhost`, `127.0.0.1`, `::1`: a development server). `javascript:`, `data:`, `file:`,
/// custom schemes and URLs carrying credentials are refused. Internal.
enum DeviceVerificationURI {
    /// `text` as a URL, when the rule allows it.
    static func url(_ text: String) -> URL? {
        guard let components = URLComponents(string: text), let url = components.url,
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil
        else { return nil }
        switch scheme {
        case "https": return url
        case "http": return ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased()) ? url : nil
        default: return nil
        }
    }
}
