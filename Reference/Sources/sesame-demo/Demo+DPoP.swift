import BoundTokensSDK
import Foundation
import HTTPTypes
import Logging
import ReferenceServer
import Sesame
import SesameDPoP
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Demo {
    /// Step 17: tokens bound to the device's key (DPoP, RFC 9449). A second reference server,
    /// with DPoP on, and the SDK generated from Tests/Fixtures/BoundTokens (`credential.dpop`):
    /// the sign-in binds the tokens to a P-256 key the app keeps, every request proves it, and
    /// the access token copied out of the session store is refused without the key.
    func bindTokensToTheDevice() async throws {
        Console.step(17, "Tokens bound to the device's key (DPoP, RFC 9449): a copied token is refused")
        let clock = self.clock
        let server = ReferenceServer(
            configuration: .init(
                port: 0, authorizationServer: .separate(port: 0), now: { clock.now },
                logger: Logger(label: "sesame-demo.dpop-server") { _ in SwiftLogNoOpLogHandler() },
                dpop: ReferenceServer.DPoPOptions(proofWindow: .seconds(600))))
        let endpoint = try await server.start()
        defer { Task { await server.stop() } }
        let store = InMemorySessionStore<BoundTokensSDK.AuthenticationDetails>()
        let keys = InMemoryDPoPKeyStore()
        let service = AuthenticationService<BoundTokensSDKSchema>(
            configuration: .init(
                baseURL: endpoint.baseURL, client: ClientCredentials(clientID: "sesame-demo", clientSecret: "demo-secret"),
                now: { clock.now }, logger: logger, sessionStore: store, receivesServerEvents: false,
                authorizationServerURL: endpoint.authorizationBaseURL, proofOfPossession: DPoP(keyStore: keys, now: { clock.now })))

        let alice = try await service.authenticate(with: SingleStepMethod.password(username: "alice", password: "wonderland"))
        let key = try require(try await keys.load(), "the sign-in kept no key")
        let me = try await service.me()
        try check(me.uid == alice.uid, "GET /me answered \(me.uid)")
        Console.ok("signed in as \(alice.uid); the tokens are bound to the key \(key.thumbprint.prefix(12))…, and GET /me proves it")

        let saved = try require(try store.load()?.credential.accessToken, "the session store holds no access token")
        let url = endpoint.baseURL.appendingPathComponent("me")
        let asBearer = try await Self.status(of: url, authorization: "Bearer \(saved)", proof: nil)
        try check(asBearer == 401, "the copied token as Bearer answered \(asBearer)")
        let nonce = await server.state.currentDPoPNonce()
        let stolenProof = try await DPoPProofSigner(key: DPoPKey(), now: { clock.now }).proof(
            method: .get, url: url, accessToken: saved, nonce: nonce)
        let withAnotherKey = try await Self.status(of: url, authorization: "DPoP \(saved)", proof: stolenProof)
        try check(withAnotherKey == 401, "the copied token with another key's proof answered \(withAnotherKey)")
        Console.ok(
            "the access token copied out of the store is refused: as Bearer (\(asBearer)), and with another key's proof (\(withAnotherKey))"
        )

        await service.unauthenticate()
        let next = try await keys.load()
        try check(next == nil || next != key, "sign-out kept the key")
        Console.ok("signed out: the key is replaced, the next sign-in binds its tokens to a new one")
    }

    /// The status of a `GET url` sent by hand, with `authorization` and `proof` as given.
    private static func status(of url: URL, authorization: String, proof: String?) async throws -> Int {
        var request = URLRequest(url: url)
        request.setValue(authorization, forHTTPHeaderField: "Authorization")
        if let proof { request.setValue(proof, forHTTPHeaderField: "DPoP") }
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
