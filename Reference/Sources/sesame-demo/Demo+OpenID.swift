import Foundation
import ReferenceSDK
import SesameTestSupport

extension Demo {
    /// Step 14: Schema/'s `openid` method, an OpenID Connect sign-in: the generated SDK
    /// validates the ID token with the validator it builds from sdk.yaml's `openID` (keys
    /// fetched from the server's JWKS), and `idTokenClaims()` returns its claims as
    /// `OpenIDClaims`. Returns the service, signed out, for steps 15 and 16: its JWKS cache
    /// holds the keys this sign-in fetched.
    func signInWithOpenID() async throws -> AuthenticationService<ReferenceSDKSchema> {
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
        return service
    }

    /// Step 15: the provider rotates its signing keys while the service caches the old JWKS.
    /// The next sign-in's ID token names a `kid` the cache lacks, so the SDK fetches the JWKS
    /// again, once, and validates the token with the new key. What is printed is what the
    /// server saw: its key ids before and after, and how often its JWKS was fetched.
    func rotateKeysThenSignIn(with service: AuthenticationService<ReferenceSDKSchema>) async throws {
        Console.step(15, "The provider rotates its signing keys: the next sign-in's ID token still validates")
        let oldKeys = try await backEnd.signingKeyIDs()
        let fetchesBefore = await backEnd.jwksRequests()
        try check(fetchesBefore >= 1, "step 14's sign-in did not fetch the JWKS")
        try await backEnd.rotateSigningKeys()
        let newKeys = try await backEnd.signingKeyIDs()
        try check(Set(oldKeys).isDisjoint(with: newKeys), "the rotation kept a key: \(oldKeys) then \(newKeys)")
        Console.info(
            "the server's JWKS now lists kid \(newKeys.joined(separator: ", ")) in place of \(oldKeys.joined(separator: ", ")); "
                + "the service still caches the old keys")
        let alice = try await service.authenticate(with: SingleStepMethod.openid())
        let fetches = await backEnd.jwksRequests() - fetchesBefore
        try check(fetches == 1, "the sign-in after the rotation fetched the JWKS \(fetches) times, not once")
        let read = try await service.idTokenClaims()
        let claims = try require(read, "idTokenClaims() is nil after the sign-in that followed the rotation")
        try check(claims.sub == alice.uid, "the ID token's sub \(claims.sub) is not \(alice.uid)")
        Console.ok(
            "the new ID token's kid was unknown to the cached keys: the SDK fetched /.well-known/jwks.json again once "
                + "(\(fetchesBefore) then \(fetchesBefore + fetches) requests at the server) and accepted kid \(newKeys[0]); signed in as \(claims.sub)"
        )
    }
}
