import Foundation
import HTTPTypes
import Hummingbird

/// The OpenID provider's routes: the JWKS at ``DiscoveryRoutes/jwksPath`` on the
/// authorization server's listener, and the control API's knobs under `/_control/openid`
/// (docs/reference-server.md).
struct OpenIDRoutes {
    let state: ReferenceServerState

    /// Where the UserInfo endpoint is (OpenID Connect Core §5.3), on the authorization server.
    static let userInfoPath = "/userinfo"

    /// `GET /.well-known/jwks.json`: the public halves of the signing keys (RFC 7517 §5).
    /// `GET /userinfo`: the claims of the user an `openid` sign-in's access token belongs to
    /// (Bearer, RFC 6750 §2.1); 401 with a bare Bearer challenge without a token, 401
    /// `invalid_token` for one the server does not know (any more), 403 `insufficient_scope`
    /// for one whose sign-in did not ask for `openid`.
    func register(on router: Router<ServerRequestContext>) {
        router.get(RouterPath(DiscoveryRoutes.jwksPath)) { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/jwk-set+json"
            let response = try Responses.json(try await state.jwks())
            return Response(status: .ok, headers: headers, body: response.body)
        }
        router.get(RouterPath(Self.userInfoPath)) { request, _ in
            let claims = try await state.userInfo(accessToken: try RequestDecoding.bearerToken(of: request))
            var headers = HTTPFields()
            headers[.cacheControl] = "no-store"
            return try Responses.json(claims, headers: headers)
        }
    }

    /// `POST /_control/openid/rotate-keys`, `POST /_control/openid/next-id-token`
    /// (`{"fault": "aud"}`, or `null` to clear; `{"claims": {"name": "Alice"}}` adds or replaces
    /// claims of the next ID token, whatever their JSON type), `POST /_control/openid/next-userinfo`
    /// (`{"fault": "sub"}` or `{"fault": "no-sub"}`, or `null`), `POST /_control/openid/algorithm`
    /// (`{"algorithm": "ES256"}`) and `GET /_control/openid/keys` (the key ids the JWKS lists).
    func registerControl(on control: RouterGroup<ServerRequestContext>) {
        control.post("/openid/rotate-keys") { _, _ in
            try await state.rotateSigningKeys()
            return try Responses.json(["keyIDs": try await state.signingKeyIDs()])
        }
        control.get("/openid/keys") { _, _ in
            try Responses.json(["keyIDs": try await state.signingKeyIDs()])
        }
        control.post("/openid/next-id-token") { request, _ in
            let body = try await RequestDecoding.json(NextIDTokenBody.self, from: request)
            await state.setNextIDTokenFault(try Self.fault(IDTokenFault.self, named: body.fault))
            await state.setNextIDTokenClaims(body.claims)
            return try Responses.json(body)
        }
        control.post("/openid/next-userinfo") { request, _ in
            let (body, fault) = try await faultRequest(UserInfoFault.self, request)
            await state.setNextUserInfoFault(fault)
            return try Responses.json(body)
        }
        control.post("/openid/algorithm") { request, _ in
            struct Body: Codable { var algorithm: String }
            let body = try await RequestDecoding.json(Body.self, from: request)
            try await state.setIDTokenAlgorithm(body.algorithm)
            return try Responses.json(body)
        }
    }

    /// The body of a `next-…` fault knob, `{"fault": name}` or `{"fault": null}`, and the fault
    /// it names.
    /// - Throws: `invalid_request` naming the faults when `name` is none of `Fault`'s.
    private func faultRequest<Fault: RawRepresentable & CaseIterable>(
        _ type: Fault.Type, _ request: Request
    ) async throws -> (FaultBody, Fault?) where Fault.RawValue == String {
        let body = try await RequestDecoding.json(FaultBody.self, from: request)
        return (body, try Self.fault(Fault.self, named: body.fault))
    }

    /// The fault `name` names, nil for nil.
    /// - Throws: `invalid_request` naming the faults when `name` is none of `Fault`'s.
    private static func fault<Fault: RawRepresentable & CaseIterable>(
        _ type: Fault.Type, named name: String?
    ) throws -> Fault? where Fault.RawValue == String {
        try name.map { name in
            guard let fault = Fault(rawValue: name) else {
                let names = Fault.allCases.map(\.rawValue).joined(separator: ", ")
                throw OAuthError.invalidRequest("`fault` must be one of \(names), or null.")
            }
            return fault
        }
    }

    /// A fault knob's body.
    private struct FaultBody: Codable { var fault: String? }

    /// The next ID token knob's body: a fault, claims to add or replace, or neither (a good token).
    private struct NextIDTokenBody: Codable {
        var fault: String?
        var claims: [String: JSONValue]?
    }
}
