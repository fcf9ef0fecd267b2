import Foundation
import HTTPTypes
import OpenAPIRuntime
@_spi(Generated) import SesameDescription

/// An error response, before it becomes the schema's typed error at the public boundary.
struct BackEndError: Error, Sendable {
    let response: ServerErrorResponse
    /// The response's header fields (the refresh reads `Retry-After`).
    var headerFields: HTTPFields = [:]
}

/// Which credential a request carries.
enum CredentialMode: Sendable {
    /// None.
    case none
    /// The session's, refreshed as needed; the request fails without a session.
    case session
    /// This one, never refreshed (a sign-in completing, or a sign-out revoking).
    case fixed(Credential)
}

extension AuthenticationService {
    /// Sends an operation through the pipeline. Operations marked `authenticated` carry
    /// the session's credential, refreshed as the schema says; a response that is not 2xx
    /// is thrown as the schema's `ServerError`.
    /// - Throws: `Schema.ServerError` for an error response; ``SesameError`` for the rest:
    ///   `notAuthenticated` without a session, `reauthenticationRequired` (before sending)
    ///   when the sign-in is older than the operation's `freshAuthentication`, `transport`,
    ///   `decoding` for a 2xx body larger than `maximumResponseSize`, `excessiveRefresh`,
    ///   `stepUpRequired` for a 401 or 403 with an RFC 9470 challenge (no refresh is tried and
    ///   the session stays as it was). For the schema's UserInfo operation (`openID.userInfo`),
    ///   ``UserInfoRejection`` when its `sub` is not the session's ID token's (OpenID Connect
    ///   Core §5.3.2): the response is not returned; and
    ///   ``UserInfoRejection/noIDToken(operation:)`` before anything is sent when the session
    ///   holds no validated ID token to check it against.
    public nonisolated func perform(_ request: OperationRequest) async throws -> OperationResponse {
        do {
            let userInfo = isUserInfo(request.description)
            if userInfo { try await checkUserInfoCanBeChecked(operation: request.description.name) }
            let response = try await send(request, credential: request.description.authenticated ? .session : .none)
            if userInfo { try await checkUserInfoSubject(of: response) }
            return response
        } catch {
            throw Self.publicError(error)
        }
    }

    /// The error a public method throws for an internal one.
    nonisolated static func publicError(_ error: any Error) -> any Error {
        if let error = error as? BackEndError { return Schema.serverError(error.response) }
        return error
    }

    /// Sends an operation within the configuration's `requestTimeout`; error responses are
    /// thrown as ``BackEndError``.
    nonisolated func send(_ operation: OperationRequest, credential mode: CredentialMode) async throws -> OperationResponse {
        try await Deadline.run(within: configuration.requestTimeout, operation: operation.description.name, what: "the request") {
            try await self.sendWithoutDeadline(operation, credential: mode)
        }
    }

    private nonisolated func sendWithoutDeadline(
        _ operation: OperationRequest, credential mode: CredentialMode
    ) async throws -> OperationResponse {
        let name = operation.description.name
        if case .session = mode { try await checkSession(for: operation.description) }
        // Client credentials go to the authorization server only (docs/runtime.md).
        if operation.description.clientAuthentication != .none, operation.description.server == .api, !serversShareOrigin {
            throw SesameError.invalidState(
                reason: "refusing to send client credentials with \(name) to the API's origin: only the authorization server receives them")
        }
        let prepared: RequestFactory.Prepared
        do {
            prepared = try RequestFactory.make(operation, client: configuration.client)
        } catch let error as TemplateError {
            throw SesameError.encoding(reason: error.description)
        }
        let sighting = StepUpSighting()
        let (response, body) = try await StepUpSighting.$current.withValue(sighting) {
            try await transmit(
                prepared.request, body: prepared.body.map { HTTPBody($0) },
                operation: name, credential: mode, server: operation.description.server)
        }
        guard (200..<300).contains(response.status.code) else {
            // Only for the API's answer to a request that carried the session's credential:
            // a token endpoint's or another origin's challenge is about no session.
            if case .session = mode, operation.description.server == .api, let challenge = sighting.challenge {
                throw SesameError.stepUpRequired(operation: name, challenge: challenge)
            }
            let data = try await body.collectedErrorBody(upTo: configuration.maximumResponseSize, operation: name)
            throw BackEndError(
                response: ServerErrorParser.parse(
                    status: response.status.code, headerFields: response.headerFields,
                    body: data, catalogue: sdk.errors),
                headerFields: response.headerFields)
        }
        let data = try await body.collected(upTo: configuration.maximumResponseSize, operation: name)
        return OperationResponse(operation: name, status: response.status.code, headerFields: response.headerFields, body: data)
    }

    /// Sends a request to `server` through the pipeline with the credential `mode` says,
    /// following redirects (see ``RedirectFollower``), and maps transport failures to
    /// ``SesameError/transport(operation:reason:)``. The credential goes only to the
    /// server's origin: the API's, or the authorization server's for a request declared
    /// there as `authenticated`.
    nonisolated func transmit(
        _ request: HTTPRequest, body: HTTPBody?, operation: String,
        credential mode: CredentialMode, streaming: Bool = false, server: ServerRole = .api
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let pipeline = streaming ? self.eventPipeline : self.pipeline
        try proofs.check()
        let credentialMiddleware: [any ClientMiddleware]
        switch mode {
        case .none:
            // No session credential, but redirects are followed all the same, and client
            // authentication dropped when one leaves the origin.
            credentialMiddleware = [
                RedirectMiddleware(scope: server == .api ? scope : authorizationScope, presenter: presenter, logger: logger)
            ]
        case .session:
            let source = SessionCredentialSource(service: WeakReference(self), marksRefreshErrors: true)
            credentialMiddleware = [makeCredentialMiddleware(source: source, requiresCredential: true, server: server)]
        case .fixed(let credential):
            credentialMiddleware = [
                makeCredentialMiddleware(
                    source: FixedCredentialSource(credential: credential), requiresCredential: true, server: server)
            ]
        }
        // The transport stops reading a body at these (docs/runtime.md, "Response limits").
        let limit = configuration.maximumResponseSize
        let limits = ResponseLimits(total: streaming ? nil : limit, unread: streaming ? 2 * limit : limit)
        do {
            return try await ResponseLimits.$current.withValue(limits) {
                try await pipeline.send(
                    request, body: body, baseURL: sdk.baseURL(of: server), operationID: operation,
                    through: credentialMiddleware)
            }
        } catch let error as SesameError {
            throw error
        } catch let error as RefreshOutcome {
            // The refresh the request waited for failed with an error of its own (an ID
            // token refused): the caller gets it, as a call to refresh would.
            throw error.underlying
        } catch let error as BackEndError {
            throw error
        } catch let error as Schema.ServerError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SesameError.transport(operation: operation, reason: TransportFailure.describe(error))
        }
    }

    /// Checks that there is a session, and that it is recent enough for the operation.
    /// - Throws: ``SesameError/notAuthenticated``, ``SesameError/reauthenticationRequired(operation:)``.
    func checkSession(for request: RequestDescription) throws {
        guard let session else { throw SesameError.notAuthenticated }
        if let fresh = request.freshAuthentication, now().timeIntervalSince(session.signedInAt) > fresh.timeInterval {
            logger.info("\(request.name) needs a more recent sign-in")
            throw SesameError.reauthenticationRequired(operation: request.name)
        }
    }
}
