import Foundation
import HTTPTypes
import Hummingbird

/// Reads and judges the `DPoP` header field of a request (RFC 9449 §4.3, §7.1).
enum DPoPRequest {
    /// The `DPoP` field's name.
    static let headerField = HTTPField.Name("DPoP")!
    /// The `DPoP-Nonce` field's name (RFC 9449 §8).
    static let nonceField = HTTPField.Name("DPoP-Nonce")!

    /// The thumbprint of the key the request's proof verified with, or nil when the server
    /// does not check DPoP or the request carries no proof (and `required` is false).
    ///
    /// With `accessToken`, the proof's `ath` must be its hash. Throws the answer of
    /// ``OAuthError/dpop(_:at:)`` for a missing (when `required`), repeated, invalid,
    /// replayed or nonce-less proof.
    static func proofKey(
        of request: Request,
        state: ReferenceServerState,
        accessToken: String? = nil,
        required: Bool = false,
        at endpoint: DPoPEndpoint
    ) async throws -> String? {
        guard state.configuration.dpop != nil else { return nil }
        let values = request.headers[values: headerField]
        guard let proof = values.first else {
            guard required else { return nil }
            throw OAuthError.dpop(.invalidProof("The request needs a DPoP proof."), at: endpoint)
        }
        for value in values { await state.accepted(IssuedSecret(kind: .dpopProof, value: value)) }
        guard values.count == 1 else {
            throw OAuthError.dpop(.invalidProof("The request carries more than one DPoP proof."), at: endpoint)
        }
        do throws(DPoPFailure) {
            let verified = try await DPoPProofVerifier.verify(
                proof, method: request.method.rawValue, targetURI: targetURI(of: request))
            try await state.check(verified, accessToken: accessToken)
            return verified.thumbprint
        } catch {
            throw OAuthError.dpop(error, at: endpoint)
        }
    }

    /// The URI the request was sent to, as `htu` names it: `http://` and the `Host` it
    /// reached, then the path (without query).
    static func targetURI(of request: Request) -> String {
        "http://\(request.head.authority ?? "")\(request.uri.path)"
    }
}

/// Adds the server's current DPoP nonce to every answer, errors included (RFC 9449 §8.1,
/// §9), when ``ReferenceServer/Configuration/dpop`` asks for nonces.
struct DPoPNonceMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let state: ReferenceServerState

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            var response = try await next(request, context)
            if let nonce = await state.currentDPoPNonce() { response.headers[DPoPRequest.nonceField] = nonce }
            return response
        } catch var error as OAuthError {
            if let nonce = await state.currentDPoPNonce() { error.headers[DPoPRequest.nonceField] = nonce }
            throw error
        }
    }
}
