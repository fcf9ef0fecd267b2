import Foundation
import HTTPTypes
import Hummingbird

/// The step-up protected operation (RFC 9470) and the authentication context classes of the
/// login page.
///
/// `GET /account/security` answers only an access token whose sign-in reached
/// ``requiredACR`` on the login page within the last ``maxAge`` seconds (the server's
/// clock); any other valid token gets `401` with `WWW-Authenticate: Bearer
/// error="insufficient_user_authentication", acr_values="…", max_age=…`. The login page
/// stands for every factor: a sign-in that asked for ``requiredACR`` in `acr_values` reaches
/// it; one that asked nothing reaches ``passwordACR``. Refreshes keep the sign-in's `acr` and
/// time; the `/auth/*` methods and the password grant reach none.
struct StepUpRoutes {
    let state: ReferenceServerState
    let resources: ResourceRoutes

    /// The class of a sign-in with a second factor, which `GET /account/security` needs.
    static let requiredACR = "urn:sesame:loa:mfa"
    /// The class of a sign-in with a password only.
    static let passwordACR = "urn:sesame:loa:pwd"
    /// The classes the login page reaches, as discovery lists them.
    static let supportedACRs = [passwordACR, requiredACR]
    /// How recent, in seconds, the sign-in behind `GET /account/security` must be.
    static let maxAge = 300

    func register(on router: Router<ServerRequestContext>) {
        router.get("/account/security") { request, _ in
            let session = try await resources.authenticate(request)
            let context = await state.authenticationContext(of: session)
            let age = await state.now().timeIntervalSince(context.authTime)
            guard context.acr == Self.requiredACR, age <= Double(Self.maxAge) else {
                throw Self.insufficientUserAuthentication()
            }
            return try Responses.json(
                AccountSecurity(uid: session.uid, acr: Self.requiredACR, authTime: Int(context.authTime.timeIntervalSince1970)))
        }
    }

    /// 401 with the RFC 9470 §3 challenge naming ``requiredACR`` and ``maxAge``.
    static func insufficientUserAuthentication() -> OAuthError {
        let description = "This operation needs a sign-in with a second factor within the last \(maxAge) seconds."
        var headers = HTTPFields()
        headers[.wwwAuthenticate] =
            "Bearer realm=\"\(OAuthError.realm)\", error=\"insufficient_user_authentication\", "
            + "error_description=\"\(description)\", acr_values=\"\(requiredACR)\", max_age=\(maxAge)"
        return OAuthError(status: .unauthorized, code: "insufficient_user_authentication", description: description, headers: headers)
    }

    /// The class a login-page sign-in reaches when it asked for `acrValues`: the first one the
    /// page supports, else ``passwordACR``.
    static func achievedACR(for acrValues: [String]) -> String {
        acrValues.first { supportedACRs.contains($0) } ?? passwordACR
    }

    /// Checks the OpenID Connect parameters of an authorization request: `max_age` must be a
    /// non-negative integer (else `invalid_request`), and `prompt=none` is answered
    /// `login_required`, the login page having no session to reuse.
    static func check(_ request: AuthorizationRequest) -> AuthorizationFailure? {
        let parameters = Dictionary(request.openIDParameters, uniquingKeysWith: { first, _ in first })
        if let maxAge = parameters["max_age"], UInt(maxAge) == nil {
            return .redirect(request, error: "invalid_request", description: "`max_age` must be a non-negative integer.")
        }
        if let prompt = parameters["prompt"]?.split(separator: " "), prompt.contains("none") {
            guard prompt.count == 1 else {
                return .redirect(request, error: "invalid_request", description: "`prompt=none` cannot be combined.")
            }
            return .redirect(request, error: "login_required", description: "The user is not signed in here.")
        }
        return nil
    }
}

/// The answer of `GET /account/security`.
struct AccountSecurity: Codable, Sendable {
    var uid: String
    var acr: String
    /// When the user signed in, in seconds since 1970.
    var authTime: Int
}
