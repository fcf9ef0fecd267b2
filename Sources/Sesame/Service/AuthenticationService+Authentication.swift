import Foundation
@_spi(Generated) import SesameDescription

extension AuthenticationService {
    /// The authentication method under way, nil when none is.
    public var ongoingAuthentication: OngoingAuthentication? {
        signIn.ongoing
    }

    /// Signs in with a method that needs no input between its steps: runs its steps in
    /// order, reads the token response of the last one, fetches the user's details with
    /// the new credential, and ends in `authenticated(details)`. Any authentication under
    /// way is cancelled first.
    /// - Returns: the signed-in user's details.
    /// - Throws: `Schema.ServerError` when the back-end refuses a step; ``SesameError`` for
    ///   transport, decoding (a malformed token response or details) and encoding failures,
    ///   and `authenticationProcess` when a sign-out or another sign-in superseded this one.
    ///   ``SchemaViolation`` before anything is sent when an argument breaks its schema.
    ///   A failed authentication never changes the state.
    ///
    /// With `context: .currentAccount` the method attaches its identity to the signed-in
    /// user's account instead (see ``AuthenticationContext``): it throws
    /// ``SesameError/notAuthenticated`` unless a user is `authenticated`, and
    /// ``SesameError/accountMismatch(reason:)`` when the back-end answers for another user.
    public func authenticate(
        with method: some SingleStepAuthenticationMethod, context: AuthenticationContext = .new
    ) async throws -> Schema.Details {
        try await authenticate(singleStep: method, context: context, authorization: nil)
    }

    /// Runs a single-step method to its end: the one path of ``authenticate(with:context:)``
    /// and ``authenticate(with:authorization:context:)``.
    func authenticate(
        singleStep method: some SingleStepAuthenticationMethod, context: AuthenticationContext,
        authorization: AuthorizationParameters?
    ) async throws -> Schema.Details {
        try method.validate()
        let description = method.methodDescription
        if let authorization {
            guard description.steps.contains(where: { $0.interpreter.takesAuthorizationParameters }) else {
                throw SesameError.authenticationProcess(
                    reason: "\(description.name) has no browser step: authorization parameters go on a browser sign-in")
            }
            _ = try authorization.queryItems()
        }
        let id = try startProcess(description, arguments: method.arguments, context: context, authorization: authorization)
        switch try await runSteps(of: id) {
        case .authenticated(let details):
            return details
        case .needsInput(let ongoing):
            signIn.abandon(id: id)
            throw SesameError.authenticationProcess(
                reason: "\(ongoing.methodName) needs input between steps: use initializeAuthentication(with:)")
        }
    }

    /// Starts a method that needs input between its steps: runs its steps up to the first
    /// one that needs values from the app, and stops there (see ``ongoingAuthentication``).
    /// Any authentication under way is cancelled first.
    /// - Returns: `.needsInput` with what the next step needs, or `.authenticated` when the
    ///   method needed no input after all.
    /// - Throws: as ``authenticate(with:context:)``; the process ends on failure.
    /// With `context: .currentAccount` the method attaches its identity to the signed-in
    /// user's account, as ``authenticate(with:context:)`` says.
    @discardableResult
    public func initializeAuthentication(
        with method: some MultiStepAuthenticationMethod, context: AuthenticationContext = .new
    ) async throws
        -> AuthenticationProgress<Schema.Details>
    {
        try method.validate()
        let id = try startProcess(method.methodDescription, arguments: method.arguments, context: context)
        return try await runSteps(of: id)
    }

    /// Runs the next step of the ongoing method with the values the app supplies, then
    /// the following steps up to the next one that needs input, or to the end.
    /// - Returns: `.authenticated` when the method completed, else `.needsInput`.
    /// - Throws: ``SesameError/authenticationProcess(reason:)`` when no method is under way,
    ///   a step is already running, the continuation names another method or step, or a
    ///   needed value is missing; otherwise as ``authenticate(with:context:)``. When the back-end
    ///   refuses the step (a wrong code), the process stays at that step to be retried.
    @discardableResult
    public func continueAuthentication(
        with continuation: some AuthenticationContinuation
    ) async throws
        -> AuthenticationProgress<Schema.Details>
    {
        try continuation.validate()
        switch signIn.continueWith(
            methodName: continuation.methodName, stepName: continuation.stepName,
            values: continuation.values)
        {
        case .resume(let id):
            return try await runSteps(of: id)
        case .refuse(let reason):
            throw SesameError.authenticationProcess(reason: reason)
        }
    }

    /// Cancels the authentication under way, if any, and never changes the state. A browser
    /// still open for a browser step is dismissed at once (``Browser/dismiss()``) and the
    /// sign-in fails with ``BrowserSignInError/cancelled`` without waiting for the user; a code
    /// the browser brings back later is never exchanged. A step still running is discarded
    /// when it completes, and when that step's answer was the token response, its tokens are
    /// revoked (the schema's `lifecycle.revoke`, RFC 7009) rather than dropped. Does nothing
    /// when none is under way.
    public func cancelAuthentication() {
        if let method = cancelSignIn() { logger.info("authentication with \(method) cancelled") }
    }

    // MARK: Running steps

    func startProcess(
        _ method: AuthenticationMethodDescription, arguments: [String: JSONValue], context: AuthenticationContext,
        authorization: AuthorizationParameters? = nil
    ) throws -> UInt64 {
        // The process under way is replaced; its browser, if open, closes.
        cancelSignIn()
        if context == .new { return signIn.start(method, arguments: arguments, epoch: epoch, authorization: authorization) }
        guard case .authenticated(let details) = machine.current else { throw SesameError.notAuthenticated }
        let user = Schema.userID(of: details)
        return context == .sameAccount
            ? signIn.start(method, arguments: arguments, epoch: epoch, reauthenticating: user, authorization: authorization)
            : signIn.start(method, arguments: arguments, epoch: epoch, attachingTo: user, authorization: authorization)
    }

    /// Runs steps until one needs input or the method ends; after each await the sign-in
    /// machine says whether the process was cancelled or replaced meanwhile.
    func runSteps(of id: UInt64) async throws -> AuthenticationProgress<Schema.Details> {
        while true {
            guard case .run(let step, let current) = signIn.nextStep(of: id) else { throw cancelled() }
            let interpreter = step.interpreter
            let browser = interpreter.opensBrowser ? openBrowserSession() : nil
            let response: JSONValue
            do {
                response = try await interpreter.run(step, of: current, credential: session?.credential, browser: browser, in: self)
            } catch {
                let malformed = if case SesameError.decoding = error { true } else { false }
                signIn.stepFailed(id: id, malformedAnswer: malformed)
                run(machine.authenticationFailed())
                throw Self.publicError(error)
            }
            // A task cancelled while the step ran cancels the process, as cancelAuthentication() does.
            if Task.isCancelled { cancelSignIn() }
            switch signIn.stepAnswered(response, id: id) {
            case .superseded:
                // The last step's answer is the token response: its tokens are revoked, not dropped.
                if current.isAtLastStep { await revokeDiscarded(tokenResponse: response, of: step) }
                throw interpreter.cancellationError ?? cancelled()
            case .complete(let finished):
                return .authenticated(try await completeAuthentication(tokenResponse: response, of: finished))
            case .needsInput(let ongoing):
                return .needsInput(ongoing)
            case .runNext:
                continue
            }
        }
    }

    /// Sends a step's own request with the values `process` holds, and checks that its
    /// response has what later steps read.
    nonisolated func sendStepRequest(
        _ step: AuthenticationStepDescription, of process: AuthenticationProcess, credential: Credential?
    ) async throws -> JSONValue {
        // A token request (a browser or device step's) names a public client too: the kind says.
        let naming = step.interpreter.clientNaming
        let body: RequestBody?
        do {
            body =
                step.body.isEmpty && step.request.clientAuthentication != .post && naming == .onlyWithPost
                ? nil
                : try RequestFactory.body(
                    fields: step.body, for: step.request, client: configuration.client, naming: naming
                ) {
                    process.value(of: $0, credential: credential)
                }
        } catch let error as TemplateError {
            throw SesameError.encoding(reason: error.description)
        }
        // Into the current account, steps sent to the API carry the current credential,
        // except a step with client authentication: its `Authorization` is the client's.
        let attaches =
            process.attachingTo != nil && step.request.server == .api && step.request.clientAuthentication == .none
        let mode: CredentialMode = step.request.authenticated || attaches ? .session : .none
        let response = try await send(OperationRequest(step.request, body: body), credential: mode)
        let json = try TokenResponseReader.json(response.body, operation: step.request.name)
        try Self.checkFields(of: json, readFrom: step, in: process)
        return json
    }

    /// Checks that a step's response has every field that later steps read from it
    /// (`{initialize.challengeId}`), so that a malformed response fails the step that got
    /// it rather than the next one, which could never succeed.
    /// - Throws: ``SesameError/decoding(operation:reason:)`` naming the first missing or
    ///   null field.
    private nonisolated static func checkFields(
        of response: JSONValue, readFrom step: AuthenticationStepDescription,
        in process: AuthenticationProcess
    ) throws {
        var answered = process
        answered.responses[step.name] = response
        for path in process.method.fieldPaths(readFrom: step.name) {
            let value = answered.value(of: .stepOutput(step: step.name, path: path), credential: nil)
            if value == nil || value == .null {
                throw SesameError.decoding(
                    operation: step.request.name,
                    reason: "$.\(path.joined(separator: ".")): required property is missing")
            }
        }
    }

    /// Reads the credential, fetches the details with it, and signs the user in, unless a
    /// sign-out, a cancellation or another sign-in happened meanwhile.
    private func completeAuthentication(
        tokenResponse: JSONValue, of finished: AuthenticationProcess
    ) async throws
        -> Schema.Details
    {
        let details: Schema.Details
        let signedIn: StoredSession<Schema.Details>
        // The tokens the server issued, revoked if the sign-in is cancelled from here on.
        var issued: Credential?
        var discarded = false
        // Tokens of another user than the one to re-authenticate: revoked, not dropped.
        var mismatched = false
        // An ID token whose claims do not fit the details (`details: idToken`): revoked too.
        var refused = false
        do {
            // Errors name the request that answered, as they do for a body that is not JSON.
            var credential = try TokenResponseReader.credential(
                from: tokenResponse, description: sdk.credential,
                operation: finished.nextStep?.request.name ?? finished.method.name,
                now: now())
            // Validated by checkIDToken when the last step is an OpenID Connect sign-in.
            credential.idToken = Self.idToken(
                in: tokenResponse, validated: idTokenValidator != nil && validatesIDToken(of: finished.method.steps.last))
            issued = credential
            if let request = sdk.credential.details {
                let response = try await send(OperationRequest(request), credential: .fixed(credential))
                details = try response.decode(Schema.Details.self)
            } else {
                // `details: idToken`: the validated ID token's claims, no request. Claims that
                // do not fit refuse the token: its exchange's tokens are revoked.
                refused = true
                details = try detailsFromIDToken(of: credential, operation: finished.nextStep?.request.name ?? finished.method.name)
                refused = false
            }
            // A task cancelled meanwhile cancels the process, as cancelAuthentication() does.
            if Task.isCancelled { cancelSignIn() }
            if let user = finished.attachingTo ?? finished.reauthenticating {
                guard Schema.userID(of: details) == user else {
                    mismatched = finished.reauthenticating != nil
                    throw SesameError.accountMismatch(reason: "\(finished.method.name) signed in another user than the current one")
                }
                guard signIn.completed(id: finished.id, epoch: epoch) == .signIn, machine.current.isAuthenticated else {
                    discarded = true
                    throw cancelled()
                }
                // The same user: no context switch, a new credential and fresh details.
                logger.info(
                    finished.attachingTo != nil
                        ? "attached an identity with \(finished.method.name) to the current account"
                        : "signed the current user in again with \(finished.method.name)")
                await execute(machine.identityAttached(StoredSession(credential: credential, details: details, signedInAt: now())))
                return details
            }
            guard signIn.completed(id: finished.id, epoch: epoch) == .signIn else {
                discarded = true
                throw cancelled()
            }
            // In the same actor step as the state change: the user's context is current
            // before anyone sees `authenticated`; refusing it fails the sign-in.
            try configuration.userSessionObserver?.userSessionWillBegin(userID: Schema.userID(of: details), .signIn)
            signedIn = StoredSession(credential: credential, details: details, signedInAt: now())
        } catch {
            signIn.completionFailed(id: finished.id)
            run(machine.authenticationFailed())
            // Cancelled (or superseded) with tokens in hand: they are revoked, not dropped.
            if let issued, mismatched || refused {
                await revokeDiscarded(issued, operation: finished.nextStep?.request.name ?? finished.method.name)
            } else if let issued, discarded || Task.isCancelled {
                await revokeDiscarded(issued, operation: finished.nextStep?.request.name ?? finished.method.name)
                if let cancellation = finished.nextStep?.interpreter.cancellationError { throw cancellation }
            }
            throw Self.publicError(error)
        }
        logger.info("signed in with \(finished.method.name)")
        await execute(machine.authenticationSucceeded(signedIn))
        return details
    }

    private func cancelled() -> SesameError {
        .authenticationProcess(reason: "the authentication was cancelled or superseded")
    }
}
