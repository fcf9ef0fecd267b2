import Foundation
import Hummingbird

/// The authorization server's metadata (OpenID Connect Discovery 1.0 §3, RFC 8414 §2) at
/// `/.well-known/openid-configuration` and `/.well-known/oauth-authorization-server`, on the
/// authorization server's listener. Its `issuer` is the server's (``ReferenceServerState/currentIssuer()``),
/// or the origin the request reached before the server knows it; every endpoint is under it.
struct DiscoveryRoutes {
    let state: ReferenceServerState
    let configuration: ReferenceServer.Configuration

    /// Where the ID tokens' signing keys are published (``OpenIDRoutes``).
    static let jwksPath = "/.well-known/jwks.json"

    func register(on router: Router<ServerRequestContext>) {
        for path in ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"] {
            router.get(RouterPath(path)) { request, _ in
                let issuer = await state.currentIssuer() ?? request.head.authority.map { "http://\($0)" } ?? ""
                return try Responses.json(Self.metadata(issuer: issuer, configuration: configuration))
            }
        }
    }

    /// The metadata of a server whose issuer is `issuer`: with DPoP (RFC 9449 §5.1) its
    /// proofs' algorithms, and with mandatory PAR `require_pushed_authorization_requests`
    /// (RFC 9126 §5).
    static func metadata(issuer: String, configuration: ReferenceServer.Configuration) -> AuthorizationServerMetadata {
        AuthorizationServerMetadata(
            pushed_authorization_request_endpoint: issuer + AuthorizationServerRoutes.pushedPath,
            require_pushed_authorization_requests: configuration.pushedAuthorization.required ? true : nil,
            dpop_signing_alg_values_supported: configuration.dpop.map { _ in ReferenceServer.DPoPOptions.algorithms },
            issuer: issuer,
            authorization_endpoint: issuer + "/oauth/authorize",
            token_endpoint: issuer + "/oauth/token",
            revocation_endpoint: issuer + "/oauth/revoke",
            device_authorization_endpoint: issuer + "/oauth/device_authorization",
            jwks_uri: issuer + jwksPath,
            userinfo_endpoint: issuer + OpenIDRoutes.userInfoPath,
            end_session_endpoint: issuer + EndSessionRoutes.path,
            response_types_supported: ["code"],
            grant_types_supported: [
                "authorization_code", "refresh_token", "password", "urn:ietf:params:oauth:grant-type:device_code",
            ],
            code_challenge_methods_supported: ["S256"],
            token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
            revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
            authorization_response_iss_parameter_supported: true,
            subject_types_supported: ["public"],
            id_token_signing_alg_values_supported: ["RS256", "ES256"],
            acr_values_supported: StepUpRoutes.supportedACRs,
            prompt_values_supported: ["none", "login"],
            scopes_supported: ["openid", "profile", "email"],
            claims_supported: ["iss", "sub", "aud", "exp", "iat", "auth_time", "sid", "acr", "at_hash", "nonce", "name", "email"]
        )
    }
}

/// Authorization server metadata, with the member names of RFC 8414 §2 and OpenID Connect
/// Discovery 1.0 §3.
struct AuthorizationServerMetadata: Codable, Sendable {
    var pushed_authorization_request_endpoint: String
    /// Present (true) only when the server accepts pushed requests only.
    var require_pushed_authorization_requests: Bool?
    /// Present only when the server checks DPoP.
    var dpop_signing_alg_values_supported: [String]?
    var issuer: String
    var authorization_endpoint: String
    var token_endpoint: String
    var revocation_endpoint: String
    var device_authorization_endpoint: String
    var jwks_uri: String
    var userinfo_endpoint: String
    var end_session_endpoint: String
    var response_types_supported: [String]
    var grant_types_supported: [String]
    var code_challenge_methods_supported: [String]
    var token_endpoint_auth_methods_supported: [String]
    var revocation_endpoint_auth_methods_supported: [String]
    var authorization_response_iss_parameter_supported: Bool
    var subject_types_supported: [String]
    var id_token_signing_alg_values_supported: [String]
    var acr_values_supported: [String]
    var prompt_values_supported: [String]
    var scopes_supported: [String]
    var claims_supported: [String]
}
