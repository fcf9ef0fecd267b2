import Foundation
@_spi(Generated) import SesameDescription

extension AuthenticationService {
    /// Whether `request` is the schema's UserInfo operation (`openID.userInfo`), whose
    /// response ``checkUserInfoSubject(of:)`` checks before anyone reads it.
    nonisolated func isUserInfo(_ request: RequestDescription) -> Bool {
        guard let userInfo = sdk.openID?.userInfo else { return false }
        return request == userInfo
    }

    /// Refuses the UserInfo operation before it is sent when the session holds no validated ID
    /// token: its response could only be refused (§5.3.2 compares it with the ID token's `sub`),
    /// so the access token does not go to the provider for nothing.
    /// - Throws: ``SesameError/notAuthenticated`` without a session,
    ///   ``UserInfoRejection/noIDToken(operation:)`` without a validated ID token.
    func checkUserInfoCanBeChecked(operation: String) throws {
        guard let session else { throw SesameError.notAuthenticated }
        _ = try validatedIDTokenSubject(of: session, operation: operation, outcome: "not sent")
    }

    /// OpenID Connect Core §5.3.2: the UserInfo response's `sub` must be exactly the `sub` of
    /// the ID token the session holds (read when the response arrived, so a response that
    /// outlived a user switch is compared with the new user's token and refused).
    /// - Throws: ``UserInfoRejection/subjectMismatch(operation:)`` when they differ,
    ///   ``UserInfoRejection/noIDToken(operation:)`` when the session holds no validated ID
    ///   token, ``SesameError/notAuthenticated`` without a session, and
    ///   ``SesameError/decoding(operation:reason:)`` when the body is no JSON object with a
    ///   string `sub`. Nothing changes.
    func checkUserInfoSubject(of response: OperationResponse) throws {
        guard let session else { throw SesameError.notAuthenticated }
        let operation = response.operation
        let fields: [String: JSONValue]
        switch try? response.decode(JSONValue.self) {
        case .object(let object)?: fields = object
        default: throw SesameError.decoding(operation: operation, reason: "$: expected a JSON object of claims")
        }
        guard case .string(let received)? = fields["sub"] else {
            throw SesameError.decoding(
                operation: operation, reason: "$.sub: required string claim is missing (OpenID Connect Core §5.3.2)")
        }
        let expected = try validatedIDTokenSubject(of: session, operation: operation, outcome: "not used")
        guard received == expected else {
            logger.warning("\(operation): the UserInfo response's sub is not the ID token's; not used")
            throw UserInfoRejection.subjectMismatch(operation: operation)
        }
    }

    /// The `sub` of the validated ID token `session` holds, which a UserInfo response must
    /// match (§5.3.2).
    /// - Throws: ``UserInfoRejection/noIDToken(operation:)`` when the session holds no
    ///   validated ID token, after logging a warning that ends with `outcome` (what happens to
    ///   the request or response instead).
    private func validatedIDTokenSubject(of session: StoredSession<Schema.Details>, operation: String, outcome: String) throws -> String {
        guard let idToken = session.credential.idToken, let subject = Schema.idTokenSubject(ofValidated: idToken) else {
            logger.warning("\(operation): no validated ID token to check the UserInfo response against; \(outcome)")
            throw UserInfoRejection.noIDToken(operation: operation)
        }
        return subject
    }
}
