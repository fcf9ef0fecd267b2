import Crypto
import Foundation
import HTTPTypes
import JWTKit
import OpenAPIRuntime
import SesameTestSupport

/// An authorization and resource server that issues DPoP-bound tokens (RFC 9449) and checks
/// every proof as §4.3 and §7.1 say: the signature with the header's `jwk`, `typ`, `alg`,
/// `htm`, `htu`, `iat`, a `jti` never seen, `ath` on resource requests, its nonce when it
/// asks for one, and the key the token is bound to. A `ClientTransport`, in memory.
actor DPoPServer: ClientTransport {
    static let baseURL = URL(string: "https://dpop.test")!

    /// A request as the server read it.
    struct Received: Sendable {
        var method: String
        var path: String
        var authorization: String?
        var proof: Proof?
        var status: Int
    }

    /// A proof that verified.
    struct Proof: Sendable, Equatable {
        var x: String
        var y: String
        var htm: String
        var htu: String
        var ath: String?
        var nonce: String?
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

    private(set) var received: [Received] = []
    /// The nonce the server asks proofs to carry; nil asks for none.
    var nonce: String? = "n-1"
    /// When true, every response sends a new nonce and asks for it: a server that never
    /// accepts one.
    var rotatesEveryTime = false
    private var rotations = 0
    private var seenJTIs: Set<String> = []
    private var accessTokens: [String: Proof] = [:]
    private var refreshTokens: [String: Proof] = [:]
    private var issued = 0

    func set(_ change: @Sendable (isolated DPoPServer) -> Void) { change(self) }
    func expireAccessTokens() { accessTokens = [:] }
    func count(_ path: String) -> Int { received.filter { $0.path == path }.count }

    nonisolated func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var data = Data()
        if let body { data = try await Data(collecting: body, upTo: 1 << 20) }
        return await handle(request, body: String(decoding: data, as: UTF8.self))
    }

    private func handle(_ request: HTTPRequest, body: String) async -> (HTTPResponse, HTTPBody?) {
        let path = request.path ?? ""
        let authorization = request.headerFields[.authorization]
        let token = authorization.flatMap { $0.hasPrefix("DPoP ") ? String($0.dropFirst(5)) : nil }
        let proof = await verify(request.headerFields[HTTPField.Name("DPoP")!], method: request.method, path: path, token: token)
        var answer: (HTTPResponse, HTTPBody?)
        switch (request.method, path) {
        case (.post, "/token"):
            answer = tokenResponse(proof: proof, form: formFields(body))
        case (.get, "/me"), (.get, "/notes"):
            answer = resourceResponse(proof: proof, token: token, path: path)
        case (.post, "/logout"):
            answer = (HTTPResponse(status: .noContent), nil)
        default:
            answer = error(404, "not_found")
        }
        if let nonce { answer.0.headerFields[HTTPField.Name("DPoP-Nonce")!] = nonce }
        received.append(
            Received(method: request.method.rawValue, path: path, authorization: authorization, proof: proof, status: answer.0.status.code))
        return answer
    }

    private func tokenResponse(proof: Proof?, form: [String: String]) -> (HTTPResponse, HTTPBody?) {
        guard let proof, proof.ath == nil else { return error(400, "invalid_dpop_proof") }
        if demandedNonce(proof) != nil {
            return error(400, "use_dpop_nonce")
        }
        switch form["grant_type"] {
        case "password":
            guard form["password"] == "secret" else { return error(400, "invalid_grant") }
        case "refresh_token":
            // A public client's refresh token is bound to the key too (§5).
            guard let old = form["refresh_token"], let bound = refreshTokens[old], Self.sameKey(bound, proof) else {
                return error(400, "invalid_grant")
            }
            refreshTokens[old] = nil
        default:
            return error(400, "unsupported_grant_type")
        }
        issued += 1
        accessTokens["at-\(issued)"] = proof
        refreshTokens["rt-\(issued)"] = proof
        let json = #"{"access_token":"at-\#(issued)","token_type":"DPoP","expires_in":3600,"refresh_token":"rt-\#(issued)"}"#
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(json))
    }

    private func resourceResponse(proof: Proof?, token: String?, path: String) -> (HTTPResponse, HTTPBody?) {
        guard let token, let proof, let bound = accessTokens[token], Self.sameKey(bound, proof),
            proof.ath == Data(SHA256.hash(data: Data(token.utf8))).base64URLEncoded
        else { return challenge("invalid_token") }
        if demandedNonce(proof) != nil {
            return challenge("use_dpop_nonce")
        }
        let json = path == "/me" ? #"{"sub":"ada"}"# : "[]"
        return (HTTPResponse(status: .ok, headerFields: [.contentType: "application/json"]), HTTPBody(json))
    }

    /// The nonce to ask for when the proof does not carry the current one.
    private func demandedNonce(_ proof: Proof) -> String? {
        if rotatesEveryTime {
            rotations += 1
            nonce = "r-\(rotations)"
            return nonce
        }
        guard let nonce, proof.nonce != nonce else { return nil }
        return nonce
    }

    private func verify(_ value: String?, method: HTTPRequest.Method, path: String, token: String?) async -> Proof? {
        guard let value else { return nil }
        let segments = value.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3, let headerData = try? base64URLDecoded(segments[0]),
            let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
            header["typ"] as? String == "dpop+jwt", header["alg"] as? String == "ES256",
            let jwk = header["jwk"] as? [String: String], jwk["d"] == nil, let x = jwk["x"], let y = jwk["y"]
        else { return nil }
        let keys = JWTKeyCollection()
        guard let key = try? ES256PublicKey(parameters: (x, y)) else { return nil }
        await keys.add(ecdsa: key)
        guard let claims = try? await keys.verify(value, as: Claims.self) else { return nil }
        let target = Self.baseURL.absoluteString + (path.split(separator: "?").first.map(String.init) ?? path)
        guard claims.htm == method.rawValue, claims.htu == target, abs(Double(claims.iat) - Date().timeIntervalSince1970) < 60,
            seenJTIs.insert(claims.jti).inserted
        else { return nil }
        return Proof(x: x, y: y, htm: claims.htm, htu: claims.htu, ath: claims.ath, nonce: claims.nonce)
    }

    private static func sameKey(_ a: Proof, _ b: Proof) -> Bool { a.x == b.x && a.y == b.y }

    private func error(_ status: Int, _ code: String) -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .init(code: status), headerFields: [.contentType: "application/json"]), HTTPBody(#"{"error":"\#(code)"}"#))
    }

    private func challenge(_ code: String) -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: #"DPoP algs="ES256", error="\#(code)""#]), nil)
    }
}

extension Data {
    var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
