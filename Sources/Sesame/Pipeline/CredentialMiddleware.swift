import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
@_spi(Generated) import SesameDescription

/// Applies the session's credential to requests for the back-end's origin, refreshing it
/// ahead of expiry and after the auth server's own rejection, as the schema describes.
///
/// Get one from ``AuthenticationService/credentialMiddleware`` to authenticate the requests
/// of an OpenAPI-generated client for the same back-end. It:
/// - adds the credential, as its binding says (`CredentialPresenter`: the schema's
///   `credential.header` formatted with `{accessToken}`), only to requests whose base
///   URL has the back-end's scheme, host and port, and never over plain `http` outside
///   loopback; other requests pass untouched;
/// - follows redirects itself (301, 302, 303, 307, 308; at most 5), sending the credential
///   on a hop only while the chain stays on the back-end's origin, and dropping
///   `Authorization`, `Proxy-Authorization`, `Cookie` and the credential's fields when a
///   redirect leaves it. Give the client a transport that does not follow redirects, such
///   as `StreamingURLSessionTransport`: a transport that follows them itself
///   may copy the credential to wherever the back-end redirects;
/// - retries a rejected request once: at once with the current credential when the
///   rejected one was already replaced, else after a refresh that every concurrent request
///   shares; any other 401 or 403 is returned untouched, and so is a step-up challenge
///   (RFC 9470, ``StepUpChallenge``), which never triggers a refresh;
/// - makes request bodies replayable (buffering them) so that the retry can resend them.
public struct CredentialMiddleware: ClientMiddleware {
    let source: any CredentialSource
    let scope: CredentialScope
    let matcher: RejectionMatcher
    let presenter: CredentialPresenter
    /// Whether a request that gets no credential must fail rather than go without one.
    let requiresCredential: Bool
    let maximumBodySize: Int
    let logger: Logger
    /// How an OpenAPI client's requests prove possession of the key (DPoP): each hop to the
    /// back-end's origins signed, or none sent at all when the schema binds tokens to a key
    /// and the configuration has no prover. `.none` when the schema sends bearer tokens, and
    /// for the service's own requests, which its pipeline signs.
    let proofs: Proofs

    /// ``ProofRequirement`` with the middleware that signs, once made.
    enum Proofs: Sendable {
        case none
        case missing
        case signed(ProofMiddleware)
    }

    init(
        source: any CredentialSource, scope: CredentialScope, matcher: RejectionMatcher, presenter: CredentialPresenter,
        requiresCredential: Bool, maximumBodySize: Int, logger: Logger, proofs: ProofRequirement = .none,
        proofsFor sdk: SDKDescription? = nil
    ) {
        self.source = source
        self.scope = scope
        self.matcher = matcher
        self.presenter = presenter
        self.requiresCredential = requiresCredential
        self.maximumBodySize = maximumBodySize
        self.logger = logger
        self.proofs =
            switch (proofs, sdk) {
            case (.signed(let prover), let sdk?): .signed(ProofMiddleware(prover: prover, sdk: sdk, maximumBodySize: maximumBodySize))
            case (.missing, _): .missing
            default: .none
            }
    }

    /// Sends the request with the credential, following redirects, and retries it once
    /// after a rejection.
    /// - Throws: ``SesameError/notAuthenticated`` when a credential is required and there is
    ///   no session; ``SesameError/invalidState(reason:)`` when a required credential may not
    ///   go to the request's origin; the refresh's error when a needed refresh fails;
    ///   ``SesameError/transport(operation:reason:)`` after more than 5 redirects.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> (HTTPResponse, HTTPBody?)
    {
        guard scope.permits(request, baseURL: baseURL) else {
            if requiresCredential {
                throw SesameError.invalidState(
                    reason: "refusing to send the credential of \(operationID) outside the back-end's origin or over plain http")
            }
            let outcome = try await send(
                request, body: body, baseURL: baseURL, operationID: operationID,
                credential: nil, next: next)
            return (outcome.response, outcome.body)
        }
        if case .missing = proofs { try ProofRequirement.missing.check() }
        guard let credential = try await source.credentialForSending() else {
            if requiresCredential { throw SesameError.notAuthenticated }
            let outcome = try await send(
                request, body: body, baseURL: baseURL, operationID: operationID,
                credential: nil, next: next)
            return (outcome.response, outcome.body)
        }
        let replayable = try await body.replayable(within: maximumBodySize, operation: operationID)
        let first = try await send(
            request, body: replayable, baseURL: baseURL, operationID: operationID,
            credential: credential, next: next)
        let (response, responseBody) = (first.response, first.body)
        // A step-up challenge (RFC 9470) is not a rejection: a refreshed token carries the
        // same authentication. It goes back to the caller untouched; the service maps it to
        // stepUpRequired only when the answered request carried the credential.
        if [401, 403].contains(response.status.code), let challenge = StepUpChallenge(headerFields: response.headerFields) {
            if first.carriedCredential { StepUpSighting.current?.record(challenge) }
            logger.info("the resource server asks for a step-up authentication", metadata: ["operation": "\(operationID)"])
            return (response, responseBody)
        }
        // Only a response to a request that carried the credential can reject it.
        guard first.carriedCredential, matcher.mayMatch(status: response.status.code) else { return (response, responseBody) }
        let data = try await responseBody.collectedErrorBody(upTo: maximumBodySize, operation: operationID)
        guard matcher.matches(status: response.status.code, headerFields: response.headerFields, body: data) else {
            return (response, HTTPBody(data))
        }
        logger.info("the auth server rejected the credential", metadata: ["operation": "\(operationID)"])
        guard let replacement = try await source.credentialAfterRejection(of: credential) else {
            return (response, HTTPBody(data))
        }
        let retry = try await send(
            request, body: replayable, baseURL: baseURL, operationID: operationID,
            credential: replacement, next: next)
        return (retry.response, retry.body)
    }

    /// Sends through `next`, following redirects (see ``RedirectFollower``).
    private func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String, credential: Credential?,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    )
        async throws -> RedirectFollower.Outcome
    {
        guard case .signed(let proof) = proofs else {
            return try await RedirectFollower.send(
                request, body: body, baseURL: baseURL, operationID: operationID, credential: credential,
                presenter: presenter, scope: scope, logger: logger, next: next)
        }
        // Each hop gets a proof of its own, signed as that hop is sent.
        return try await RedirectFollower.send(
            request, body: body, baseURL: baseURL, operationID: operationID, credential: credential,
            presenter: presenter, scope: scope, logger: logger
        ) { hop, hopBody, hopBaseURL in
            try await proof.intercept(hop, body: hopBody, baseURL: hopBaseURL, operationID: operationID, next: next)
        }
    }

}
