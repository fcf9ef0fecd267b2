import Foundation
import HTTPTypes
import JWTKit
import ReferenceServer
import SesameDPoP

/// Proofs for the server's DPoP tests: valid ones from the runtime's signer, and ones that
/// break one rule each, signed by jwt-kit.
struct ProofMaker: Sendable {
    let key: DPoPKey
    let now: @Sendable () -> Date

    init(key: DPoPKey = DPoPKey(), now: @escaping @Sendable () -> Date) {
        self.key = key
        self.now = now
    }

    /// A valid proof, as the runtime signs it.
    func proof(_ method: HTTPRequest.Method, _ url: URL, accessToken: String? = nil, nonce: String? = nil) async throws -> String {
        try await DPoPProofSigner(key: key, now: now).proof(method: method, url: url, accessToken: accessToken, nonce: nonce)
    }

    struct Claims: JWTPayload {
        var jti: String
        var htm: String
        var htu: String
        var iat: Int
        var ath: String?
        var nonce: String?
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// A proof whose parts are given: `typ`, `jwk` (the key's public JWK by default), the
    /// signing key (this one's by default) and the claims.
    func forged(
        htm: String, htu: String, iat: Date? = nil, jti: String = UUID().uuidString, ath: String? = nil, nonce: String? = nil,
        typ: String = "dpop+jwt", jwk: [String: String]? = nil, signedBy signer: DPoPKey? = nil
    ) async throws -> String {
        var header = JWTHeader()
        header.typ = typ
        header.alg = "ES256"
        header.jwk = (jwk ?? key.publicJWK.members).mapValues { .string($0) }
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: (signer ?? key).pemRepresentation))
        let claims = Claims(jti: jti, htm: htm, htu: htu, iat: Int((iat ?? now()).timeIntervalSince1970), ath: ath, nonce: nonce)
        return try await keys.sign(claims, header: header)
    }

    /// The key's public JWK with its private scalar `d` added.
    var jwkWithPrivateKey: [String: String] {
        var members = key.publicJWK.members
        members["d"] = key.rawRepresentation.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return members
    }
}

extension Harness {
    /// A server that checks DPoP with `options`.
    static func runDPoP(
        _ options: ReferenceServer.DPoPOptions = .init(),
        configure: @escaping (inout ReferenceServer.Configuration) -> Void = { _ in },
        _ body: (Harness) async throws -> Void
    ) async throws {
        try await run(
            configure: {
                $0.dpop = options
                configure(&$0)
            }, body)
    }

    /// A proof maker on the server's clock.
    var proofs: ProofMaker {
        let clock = clock
        return ProofMaker(now: { clock.now })
    }

    /// The URL of `path` on `listener`, as a client names it in `htu`.
    func url(_ path: String, on listener: RequestLogEntry.Listener = .api) -> URL {
        URL(string: (listener == .api ? endpoint.baseURL : endpoint.authorizationBaseURL).absoluteString + path)!
    }

    /// The `Host` field HTTP/1.1 requests carry, which the server reads `htu` against.
    func host(on listener: RequestLogEntry.Listener = .api) -> String {
        "\(endpoint.host):\(listener == .api ? endpoint.port : endpoint.authorizationPort)"
    }

    /// POSTs a form to `/oauth/token` with the demo client in HTTP Basic and `proof` (if any)
    /// in `DPoP`.
    func dpopTokenRequest(
        _ form: String, proof: String?, basic: (String, String)? = ("sesame-demo", "demo-secret")
    ) async throws
        -> HTTPResult
    {
        try await dpopPostForm("/oauth/token", form, proof: proof, basic: basic)
    }

    /// POSTs a form to `path` on the authorization server's listener with `proof` (if any).
    func dpopPostForm(
        _ path: String, _ form: String, proof: String?, basic: (String, String)? = ("sesame-demo", "demo-secret")
    )
        async throws -> HTTPResult
    {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        headers[HTTPField.Name("Host")!] = host(on: .authorization)
        if let (id, secret) = basic {
            headers[.authorization] = "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
        }
        if let proof { headers[HTTPField.Name("DPoP")!] = proof }
        return try await send(.post, path, headers: headers, body: form, on: .authorization)
    }

    /// Sends `method path` to the API with `Authorization: <scheme> <token>` and `proof`.
    func dpopResource(
        _ method: HTTPRequest.Method = .get, _ path: String = "/me", token: String, scheme: String = "DPoP", proof: String?
    )
        async throws -> HTTPResult
    {
        var headers: HTTPFields = [.authorization: "\(scheme) \(token)"]
        headers[HTTPField.Name("Host")!] = host()
        if let proof { headers[HTTPField.Name("DPoP")!] = proof }
        return try await send(method, path, headers: headers)
    }

    /// Signs alice in with the password grant and a proof from `maker`, answering the
    /// server's nonce; the tokens are bound to `maker`'s key.
    func dpopPassword(_ maker: ProofMaker) async throws -> Tokens {
        let form = "grant_type=password&username=alice&password=wonderland"
        let proof = try await maker.proof(.post, url("/oauth/token", on: .authorization), nonce: await state.currentDPoPNonce())
        return try Self.tokens(from: try await dpopTokenRequest(form, proof: proof))
    }
}

extension HTTPResult {
    /// The `DPoP-Nonce` field.
    var dpopNonce: String? { headers[HTTPField.Name("DPoP-Nonce")!] }
}
