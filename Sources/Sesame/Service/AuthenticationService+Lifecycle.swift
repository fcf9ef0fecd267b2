import Foundation
@_spi(Generated) import SesameDescription

extension AuthenticationService {
    /// Signs out. Always ends in `unauthenticated`, online or offline: the local session
    /// (memory and session store) is cleared first, any refresh or sign-in under way is
    /// discarded, then the back-end is asked to revoke the old credential when online.
    /// - Returns: whether the back-end revoked the session; its failure is reported here,
    ///   never thrown, since the user is signed out either way.
    @discardableResult
    public func unauthenticate() async -> UnauthenticationResult {
        cancelSignIn()
        let executed = await execute(machine.unauthenticate())
        return executed.revocation ?? .localOnly(reason: machine.isOnline ? "no session to revoke" : "offline")
    }

    /// Detaches the identity the user signed in with from the account, with the schema's
    /// `lifecycle.detachIdentity` operation; its path parameters are read from the user's
    /// details. Detaching the last identity destroys the account. The state does not
    /// change: the credential stays valid until it expires.
    /// - Returns: the back-end's response (the generated SDK decodes it).
    /// - Throws: ``SesameError/reauthenticationRequired(operation:)`` before sending when the
    ///   sign-in is older than the operation's `freshAuthentication`;
    ///   ``SesameError/notAuthenticated`` without a session; `Schema.ServerError` when the
    ///   back-end refuses; ``SesameError/invalidState(reason:)`` when the schema has no such operation.
    @discardableResult
    public func detachCurrentIdentity() async throws -> OperationResponse {
        guard let request = sdk.lifecycle.detachIdentity else {
            throw SesameError.invalidState(reason: "the schema declares no detachIdentity operation")
        }
        guard let details = session?.details else { throw SesameError.notAuthenticated }
        var parameters: [String: String] = [:]
        if case .object(let fields) = try? JSONValue(encoding: details) {
            for (name, value) in fields { parameters[name] = value.formValue }
        }
        return try await performLifecycle(OperationRequest(request, pathParameters: parameters))
    }

    /// Destroys the user's account with the schema's `lifecycle.destroyAccount` operation.
    /// It does not sign out: the state does not change and the credential stays valid
    /// until it expires.
    /// - Returns: the back-end's response.
    /// - Throws: as ``detachCurrentIdentity()``.
    @discardableResult
    public func destroyAccount() async throws -> OperationResponse {
        guard let request = sdk.lifecycle.destroyAccount else {
            throw SesameError.invalidState(reason: "the schema declares no destroyAccount operation")
        }
        return try await performLifecycle(OperationRequest(request))
    }

    private func performLifecycle(_ request: OperationRequest) async throws -> OperationResponse {
        do {
            return try await send(request, credential: .session)
        } catch {
            throw Self.publicError(error)
        }
    }
}
