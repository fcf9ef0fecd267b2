import Foundation
import ReferenceSDK
import SesameTestSupport

extension Demo {
    /// Step 14: Schema/'s `openid` method, an OpenID Connect sign-in: the generated SDK
    /// validates the ID token with the validator it builds from sdk.yaml's `openID` (keys
    /// fetched from the server's JWKS), and `idTokenClaims()` returns its claims as
    /// `OpenIDClaims`.
    func signInWithOpenID() async throws {
        Console.step(14, "Sign in with OpenID Connect: the ID token validated by the generated SDK, its claims typed")
        let clock = self.clock
        let service = AuthenticationService<ReferenceSDKSchema>(
            configuration: .init(
                baseURL: backEnd.baseURL,
                client: ClientCredentials(clientID: "sesame-demo-app"),
                now: { clock.now }, logger: logger, receivesServerEvents: false,
                authorizationServerURL: backEnd.authorizationBaseURL,
                browser: HeadlessBrowser(username: "alice", password: "wonderland"),
                authorizationServerIssuer: backEnd.issuer))
        let alice = try await service.authenticate(with: SingleStepMethod.openid())
        Console.info("the authorization request carried a nonce; the token response an ID token, signed with the server's RS256 key")
        let read = try await service.idTokenClaims()
        let claims = try require(read, "idTokenClaims() is nil after an OpenID Connect sign-in")
        try check(claims.sub == alice.uid, "the ID token's sub \(claims.sub) is not \(alice.uid)")
        try check(claims.iss == backEnd.issuer.issuer, "the ID token's iss \(claims.iss) is not the server's")
        try check(claims.aud == "sesame-demo-app", "the ID token's aud \(claims.aud) is not the app's client id")
        Console.ok("validated against the JWKS at /.well-known/jwks.json: signature, iss, aud, exp, iat, nonce, at_hash")
        Console.ok(
            "idTokenClaims(): sub \(claims.sub), aud \(claims.aud), signed in at \(Console.time(Date(timeIntervalSince1970: Double(claims.authTime)))), "
                + "valid for \(claims.exp - claims.iat) s")
        let signOut = await service.unauthenticate()
        // sdk.yaml's openID.endSession: the generated SDK ends the provider's session too.
        try check(signOut == .endedAtProvider(notRevoked: nil), "sign-out did not end the provider's session: \(signOut)")
        let afterSignOut = try await service.idTokenClaims()
        try check(afterSignOut == nil, "idTokenClaims() kept answering after sign-out")
        Console.ok(
            "signed out: the provider confirmed the end of its session at sdk.yaml's openID.endSession (RP-Initiated Logout); idTokenClaims() is nil"
        )
    }
}
