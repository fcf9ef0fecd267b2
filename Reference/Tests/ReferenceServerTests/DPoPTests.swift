import Foundation
import HTTPTypes
import ReferenceServer
import SesameDPoP
import Testing

/// DPoP (RFC 9449) when the configuration asks for it: every rule a proof must pass, the
/// tokens bound to the proof's key, and the server's nonces. Each test breaks one rule.
@Suite struct DPoPTests {
    static let password = "grant_type=password&username=alice&password=wonderland"

    // MARK: Token endpoint

    @Test func aValidProofBindsTheTokensToItsKey() async throws {
        try await Harness.runDPoP { h in
            let maker = h.proofs
            let nonce = try #require(await h.state.currentDPoPNonce())
            let result = try await h.dpopTokenRequest(
                Self.password, proof: try await maker.proof(.post, h.url("/oauth/token", on: .authorization), nonce: nonce))
            #expect(result.status == .ok)
            #expect(try result.object()["token_type"] as? String == "DPoP")
            #expect(result.dpopNonce == nonce)
            let tokens = try Harness.tokens(from: result)
            let me = try await h.dpopResource(
                token: tokens.access, proof: try await maker.proof(.get, h.url("/me"), accessToken: tokens.access, nonce: nonce))
            #expect(me.status == .ok)
            #expect(try me.object()["uid"] as? String == "pw-alice")
        }
    }

    @Test func withoutAProofTheTokensAreBearerUnlessProofsAreRequired() async throws {
        try await Harness.runDPoP { h in
            let result = try await h.dpopTokenRequest(Self.password, proof: nil)
            #expect(try result.object()["token_type"] as? String == "Bearer")
        }
        try await Harness.runDPoP(.init(requiresProof: true)) { h in
            let result = try await h.dpopTokenRequest(Self.password, proof: nil)
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_dpop_proof")
        }
    }

    @Test func aProofWithoutTheNonceIsAnsweredUseDPoPNonceWithTheNonce() async throws {
        try await Harness.runDPoP { h in
            let result = try await h.dpopTokenRequest(
                Self.password, proof: try await h.proofs.proof(.post, h.url("/oauth/token", on: .authorization)))
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "use_dpop_nonce")
            #expect(result.dpopNonce == (await h.state.currentDPoPNonce()))
            #expect(result.dpopNonce != nil)
        }
    }

    @Test func aRotatedNonceIsRefusedAndTheNewOneSent() async throws {
        try await Harness.runDPoP { h in
            let old = try #require(await h.state.currentDPoPNonce())
            let new = await h.state.rotateDPoPNonce()
            #expect(new != old)
            let result = try await h.dpopTokenRequest(
                Self.password, proof: try await h.proofs.proof(.post, h.url("/oauth/token", on: .authorization), nonce: old))
            #expect(try result.errorCode() == "use_dpop_nonce")
            #expect(result.dpopNonce == new)
        }
    }

    @Test func withoutNoncesAProofNeedsNone() async throws {
        try await Harness.runDPoP(.init(requiresNonce: false)) { h in
            let result = try await h.dpopTokenRequest(
                Self.password, proof: try await h.proofs.proof(.post, h.url("/oauth/token", on: .authorization)))
            #expect(result.status == .ok)
            #expect(result.dpopNonce == nil)
        }
    }

    /// One broken rule per case; the proof is otherwise valid (current nonce, right key).
    enum Broken: String, CaseIterable, Sendable {
        case typ, privateKeyInJWK, signatureOfAnotherKey, htm, htu, iatTooOld, iatInTheFuture, malformed, twoProofs
    }

    @Test(arguments: Broken.allCases)
    func aProofThatBreaksARuleIsInvalidDPoPProof(_ broken: Broken) async throws {
        try await Harness.runDPoP { h in
            let maker = h.proofs
            let nonce = await h.state.currentDPoPNonce()
            let htu = h.url("/oauth/token", on: .authorization).absoluteString
            let proof: String
            switch broken {
            case .typ: proof = try await maker.forged(htm: "POST", htu: htu, nonce: nonce, typ: "JWT")
            case .privateKeyInJWK: proof = try await maker.forged(htm: "POST", htu: htu, nonce: nonce, jwk: maker.jwkWithPrivateKey)
            case .signatureOfAnotherKey: proof = try await maker.forged(htm: "POST", htu: htu, nonce: nonce, signedBy: DPoPKey())
            case .htm: proof = try await maker.forged(htm: "GET", htu: htu, nonce: nonce)
            case .htu:
                proof = try await maker.forged(htm: "POST", htu: h.url("/oauth/revoke", on: .authorization).absoluteString, nonce: nonce)
            case .iatTooOld: proof = try await maker.forged(htm: "POST", htu: htu, iat: h.clock.now.addingTimeInterval(-61), nonce: nonce)
            case .iatInTheFuture:
                proof = try await maker.forged(htm: "POST", htu: htu, iat: h.clock.now.addingTimeInterval(61), nonce: nonce)
            case .malformed: proof = "not.a-proof"
            case .twoProofs: proof = try await maker.forged(htm: "POST", htu: htu, nonce: nonce)
            }
            var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            headers[HTTPField.Name("Host")!] = h.host(on: .authorization)
            headers[.authorization] = "Basic " + Data("sesame-demo:demo-secret".utf8).base64EncodedString()
            headers.append(HTTPField(name: HTTPField.Name("DPoP")!, value: proof))
            if broken == .twoProofs {
                headers.append(HTTPField(name: HTTPField.Name("DPoP")!, value: try await maker.forged(htm: "POST", htu: htu, nonce: nonce)))
            }
            let result = try await h.send(.post, "/oauth/token", headers: headers, body: Self.password, on: .authorization)
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_dpop_proof")
            #expect(!result.body.contains(proof), "the answer never repeats the proof")
        }
    }

    @Test func anAlgorithmOtherThanES256IsRefused() async throws {
        try await Harness.runDPoP { h in
            let nonce = await h.state.currentDPoPNonce()
            let valid = try await h.proofs.forged(htm: "POST", htu: h.url("/oauth/token", on: .authorization).absoluteString, nonce: nonce)
            // The same proof under a header that names another algorithm (its signature is ES256's).
            let parts = valid.split(separator: ".")
            let header = try JSONSerialization.jsonObject(with: Base64URLTest.decode(String(parts[0]))) as! [String: Any]
            var changed = header
            changed["alg"] = "ES384"
            let encoded = Base64URLTest.encode(try JSONSerialization.data(withJSONObject: changed, options: [.sortedKeys]))
            let result = try await h.dpopTokenRequest(Self.password, proof: "\(encoded).\(parts[1]).\(parts[2])")
            #expect(try result.errorCode() == "invalid_dpop_proof")
            #expect(try result.object()["error_description"] as? String == "The DPoP proof's alg is not one the server accepts.")
        }
    }

    @Test func aQueryInTheTargetIsIgnoredByHTU() async throws {
        try await Harness.runDPoP { h in
            let nonce = await h.state.currentDPoPNonce()
            let htu = h.url("/oauth/token", on: .authorization).absoluteString + "?x=1#f"
            let result = try await h.dpopTokenRequest(Self.password, proof: try await h.proofs.forged(htm: "POST", htu: htu, nonce: nonce))
            #expect(result.status == .ok)
        }
    }

    @Test func aReplayedProofIsRefused() async throws {
        try await Harness.runDPoP { h in
            let proof = try await h.proofs.proof(
                .post, h.url("/oauth/token", on: .authorization), nonce: await h.state.currentDPoPNonce())
            #expect(try await h.dpopTokenRequest(Self.password, proof: proof).status == .ok)
            let replay = try await h.dpopTokenRequest(Self.password, proof: proof)
            #expect(replay.status == .badRequest)
            #expect(try replay.object()["error_description"] as? String == "The DPoP proof was already used.")
        }
    }

    @Test func theReplayCacheIsBoundedAndForgetsTheOldestFirst() async throws {
        try await Harness.runDPoP(.init(replayCacheCapacity: 2)) { h in
            let maker = h.proofs
            let nonce = await h.state.currentDPoPNonce()
            let htu = h.url("/oauth/token", on: .authorization).absoluteString
            let first = try await maker.forged(htm: "POST", htu: htu, jti: "a", nonce: nonce)
            #expect(try await h.dpopTokenRequest(Self.password, proof: first).status == .ok)
            #expect(
                try await h.dpopTokenRequest(Self.password, proof: try await maker.forged(htm: "POST", htu: htu, jti: "b", nonce: nonce))
                    .status == .ok)
            #expect(try await h.dpopTokenRequest(Self.password, proof: first).status == .badRequest, "still held")
            #expect(
                try await h.dpopTokenRequest(Self.password, proof: try await maker.forged(htm: "POST", htu: htu, jti: "c", nonce: nonce))
                    .status == .ok)
            #expect(try await h.dpopTokenRequest(Self.password, proof: first).status == .ok, "a, the oldest, was forgotten")
        }
    }

    // MARK: Refresh

    @Test func aBoundRefreshTokenNeedsAProofOfItsKey() async throws {
        try await Harness.runDPoP { h in
            let maker = h.proofs
            let tokens = try await h.dpopPassword(maker)
            let form = "grant_type=refresh_token&refresh_token=\(tokens.refresh)"
            let token = h.url("/oauth/token", on: .authorization)
            let nonce = await h.state.currentDPoPNonce()
            let none = try await h.dpopTokenRequest(form, proof: nil)
            #expect(try none.errorCode() == "invalid_grant")
            let other = try await h.dpopTokenRequest(form, proof: try await h.proofs.proof(.post, token, nonce: nonce))
            #expect(try other.errorCode() == "invalid_grant")
            let own = try await h.dpopTokenRequest(form, proof: try await maker.proof(.post, token, nonce: nonce))
            #expect(own.status == .ok)
            #expect(try own.object()["token_type"] as? String == "DPoP")
            // The new tokens are bound to the same key.
            let renewed = try Harness.tokens(from: own)
            let me = try await h.dpopResource(
                token: renewed.access, proof: try await h.proofs.proof(.get, h.url("/me"), accessToken: renewed.access, nonce: nonce))
            #expect(me.status == .unauthorized)
        }
    }

    // MARK: Revocation

    @Test func aBoundTokenIsRevokedOnlyWithAProofOfItsKey() async throws {
        try await Harness.runDPoP { h in
            let maker = h.proofs
            let tokens = try await h.dpopPassword(maker)
            let revoke = h.url("/oauth/revoke", on: .authorization)
            let nonce = await h.state.currentDPoPNonce()
            let form = "token=\(tokens.refresh)&token_type_hint=refresh_token"
            let none = try await h.dpopPostForm("/oauth/revoke", form, proof: nil)
            #expect(none.status == .badRequest)
            #expect(try none.errorCode() == "invalid_dpop_proof")
            let other = try await h.dpopPostForm("/oauth/revoke", form, proof: try await h.proofs.proof(.post, revoke, nonce: nonce))
            #expect(try other.errorCode() == "invalid_dpop_proof")
            let forAccess = try await h.dpopPostForm(
                "/oauth/revoke", "token=\(tokens.access)", proof: try await h.proofs.proof(.post, revoke, nonce: nonce))
            #expect(try forAccess.errorCode() == "invalid_dpop_proof")
            // Neither refusal revoked anything: the session still refreshes.
            #expect(await h.state.counters().revocations == 0)
            let own = try await h.dpopPostForm("/oauth/revoke", form, proof: try await maker.proof(.post, revoke, nonce: nonce))
            #expect(own.status == .ok)
            #expect(await h.state.counters().revocations == 1)
        }
    }

    @Test func aRevocationsProofIsCheckedLikeAnyOther() async throws {
        try await Harness.runDPoP { h in
            let maker = h.proofs
            let tokens = try await h.dpopPassword(maker)
            // A proof for another endpoint.
            let wrongTarget = try await maker.proof(
                .post, h.url("/oauth/token", on: .authorization), nonce: await h.state.currentDPoPNonce())
            let result = try await h.dpopPostForm("/oauth/revoke", "token=\(tokens.refresh)", proof: wrongTarget)
            #expect(result.status == .badRequest)
            #expect(try result.errorCode() == "invalid_dpop_proof")
            #expect(await h.state.counters().revocations == 0)
        }
    }

    // MARK: Resources

    @Test func aBoundAccessTokenPresentedAsBearerIsRefused() async throws {
        try await Harness.runDPoP { h in
            let tokens = try await h.dpopPassword(h.proofs)
            let result = try await h.sendAuthorized(.get, "/me", token: tokens.access)
            #expect(result.status == .unauthorized)
            #expect(try result.errorCode() == "invalid_token")
        }
    }

    @Test func aBoundAccessTokenWithAnotherKeysProofIsRefused() async throws {
        try await Harness.runDPoP { h in
            let tokens = try await h.dpopPassword(h.proofs)
            let nonce = await h.state.currentDPoPNonce()
            let result = try await h.dpopResource(
                token: tokens.access, proof: try await h.proofs.proof(.get, h.url("/me"), accessToken: tokens.access, nonce: nonce))
            #expect(result.status == .unauthorized)
            #expect(result.wwwAuthenticate?.hasPrefix("DPoP ") == true)
            #expect(result.wwwAuthenticate?.contains("error=\"invalid_token\"") == true)
        }
    }

    @Test func aDPoPRequestWithoutAProofIsRefused() async throws {
        try await Harness.runDPoP { h in
            let tokens = try await h.dpopPassword(h.proofs)
            let result = try await h.dpopResource(token: tokens.access, proof: nil)
            #expect(result.status == .unauthorized)
            #expect(result.wwwAuthenticate?.contains("error=\"invalid_dpop_proof\"") == true)
        }
    }

    @Test(arguments: [false, true])
    func aResourceProofNeedsTheHashOfItsAccessToken(wrongToken: Bool) async throws {
        try await Harness.runDPoP { h in
            let maker = h.proofs
            let tokens = try await h.dpopPassword(maker)
            let nonce = await h.state.currentDPoPNonce()
            let proof =
                wrongToken
                ? try await maker.proof(.get, h.url("/me"), accessToken: tokens.refresh, nonce: nonce)
                : try await maker.proof(.get, h.url("/me"), nonce: nonce)
            let result = try await h.dpopResource(token: tokens.access, proof: proof)
            #expect(result.status == .unauthorized)
            #expect(result.wwwAuthenticate?.contains("error=\"invalid_dpop_proof\"") == true)
        }
    }

    @Test func aResourceAsksForTheNonceWithADPoPChallenge() async throws {
        try await Harness.runDPoP { h in
            let maker = h.proofs
            let tokens = try await h.dpopPassword(maker)
            let new = await h.state.rotateDPoPNonce()
            let result = try await h.dpopResource(
                token: tokens.access, proof: try await maker.proof(.get, h.url("/me"), accessToken: tokens.access))
            #expect(result.status == .unauthorized)
            #expect(result.wwwAuthenticate?.hasPrefix("DPoP ") == true)
            #expect(result.wwwAuthenticate?.contains("error=\"use_dpop_nonce\"") == true)
            #expect(result.dpopNonce == new)
            let again = try await h.dpopResource(
                token: tokens.access, proof: try await maker.proof(.get, h.url("/me"), accessToken: tokens.access, nonce: new))
            #expect(again.status == .ok)
        }
    }

    @Test func anUnboundTokenWithTheDPoPSchemeIsRefused() async throws {
        try await Harness.runDPoP { h in
            let tokens = try Harness.tokens(from: try await h.dpopTokenRequest(Self.password, proof: nil))
            let nonce = await h.state.currentDPoPNonce()
            let result = try await h.dpopResource(
                token: tokens.access, proof: try await h.proofs.proof(.get, h.url("/me"), accessToken: tokens.access, nonce: nonce))
            #expect(result.status == .unauthorized)
            #expect(result.wwwAuthenticate?.contains("error=\"invalid_token\"") == true)
        }
    }

    // MARK: Metadata

    @Test func theMetadataNamesTheProofAlgorithmsOnlyWithDPoP() async throws {
        try await Harness.runDPoP { h in
            let metadata = try await h.send(.get, "/.well-known/oauth-authorization-server", on: .authorization).object()
            #expect(metadata["dpop_signing_alg_values_supported"] as? [String] == ["ES256"])
        }
        try await Harness.run { h in
            let metadata = try await h.send(.get, "/.well-known/oauth-authorization-server", on: .authorization).object()
            #expect(metadata["dpop_signing_alg_values_supported"] == nil)
        }
    }
}

/// base64url for the tests that take a proof apart.
enum Base64URLTest {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> Data {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64) ?? Data()
    }
}
