import Foundation
import HTTPTypes

/// One way the control API can make the next UserInfo response bad (the raw values are what
/// `POST /_control/openid/next-userinfo` takes).
public enum UserInfoFault: String, Codable, Sendable, CaseIterable {
    /// `sub` names another user than the access token's (and its ID token's): a client must
    /// not use the response (OpenID Connect Core §5.3.2).
    case subject = "sub"
    /// No `sub` at all: a malformed response, which a client must not use either.
    case missingSubject = "no-sub"
}

extension ReferenceServerState {
    /// The claims `GET /userinfo` answers for `accessToken` (OpenID Connect Core §5.3): `sub`,
    /// the same as the ID token of the sign-in that token belongs to (the account's uid);
    /// `name` with the `profile` scope and `email` with the `email` scope, when the account
    /// has them. The fault the control API set, if any, is applied and cleared.
    /// - Throws: 401 `invalid_token` for an unknown, expired or revoked token; 403
    ///   `insufficient_scope` (with `scope="openid"`) for a token whose sign-in did not ask
    ///   for `openid` (RFC 6750 §3.1).
    func userInfo(accessToken: String) throws -> UserInfoClaims {
        let session = try authenticate(accessToken: accessToken)
        let scopes = (sessions[session.sessionID]?.scope ?? "").split(separator: " ")
        guard scopes.contains("openid") else {
            var headers = HTTPFields()
            headers[.wwwAuthenticate] =
                "Bearer realm=\"\(OAuthError.realm)\", error=\"insufficient_scope\", scope=\"openid\", error_description=\"The access token was not issued to an OpenID Connect sign-in.\""
            throw OAuthError(
                status: .forbidden, code: "insufficient_scope",
                description: "The access token was not issued to an OpenID Connect sign-in.", headers: headers)
        }
        let account = accounts[session.uid]
        var claims = UserInfoClaims(
            sub: session.uid, name: scopes.contains("profile") ? account?.displayName : nil,
            email: scopes.contains("email") ? account?.email : nil)
        switch openID.nextUserInfoFault {
        case .subject?: claims.sub = session.uid + "-other"
        case .missingSubject?: claims.sub = nil
        case nil: break
        }
        openID.nextUserInfoFault = nil
        return claims
    }

    /// Makes the next UserInfo response bad in the way `fault` says (nil: a good one).
    public func setNextUserInfoFault(_ fault: UserInfoFault?) {
        openID.nextUserInfoFault = fault
    }
}
