@_spi(Generated) import SesameDescription

extension AuthenticationService {
    /// Whether the schema reads the user's details from the ID token (`details: idToken`)
    /// rather than from a details operation.
    nonisolated var readsDetailsFromIDToken: Bool { sdk.credential.details == nil }

    /// The details a credential's validated ID token gives (`details: idToken`): its claims
    /// decoded into `Schema.Details`, with no request.
    /// - Throws: ``SesameError/decoding(operation:reason:)`` naming `operation` when the
    ///   credential holds no validated ID token or its claims do not fit the model (the claim's
    ///   path, never its value).
    nonisolated func detailsFromIDToken(of credential: Credential, operation: String) throws -> Schema.Details {
        guard let idToken = credential.idToken else {
            throw SesameError.decoding(
                operation: operation, reason: "$.id_token: the user's details are the ID token's claims, and no validated ID token came")
        }
        do {
            return try Schema.details(fromValidatedIDToken: idToken)
        } catch SesameError.decoding(_, let reason) {
            throw SesameError.decoding(operation: operation, reason: "the ID token's claims: \(reason)")
        } catch {
            throw SesameError.decoding(operation: operation, reason: "the ID token's claims do not fit the details")
        }
    }

    /// The details of the session, once a refresh vouched for it: with `details: idToken`
    /// those the refresh's ID token replaced, or the session's own when it returned none;
    /// otherwise the details operation's answer.
    nonisolated func currentDetails() async throws -> Schema.Details {
        guard let request = sdk.credential.details else {
            guard let details = await session?.details else { throw SesameError.notAuthenticated }
            return details
        }
        let response = try await send(OperationRequest(request), credential: .session)
        return try response.decode(Schema.Details.self)
    }
}
