import BoundTokensSDK
import Foundation
import HTTPTypes
import ReferenceServer
import Sesame
import SesameDPoP
import SesameTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The SDK generated from Tests/Fixtures/BoundTokens (`credential.dpop`, `browser.pushed`)
/// against the reference server with DPoP on, over real HTTP: tokens bound to the device's
/// key, refused without it, the server's nonces, sign-out's new key and a pushed sign-in.
@Suite("DPoP and PAR, end to end", .secretScan)
struct DPoPEndToEndTests {
    typealias Store = InMemorySessionStore<BoundTokensSDK.AuthenticationDetails>

    /// The server checks proofs against its frozen wall clock, and the runtime signs with the
    /// real one: the window covers a slow run on a loaded machine.
    static let options = ReferenceServer.DPoPOptions(proofWindow: .seconds(600))

    /// A service of the fixture SDK, its logs shown to the secret scan, signing with the key
    /// `keys` holds.
    struct Client {
        let service: AuthenticationService<BoundTokensSDKSchema>
        let keys: InMemoryDPoPKeyStore
        let store: Store
        let dpop: DPoP
    }

    static func client(_ e2e: EndToEnd, browser: (any Browser)? = nil) -> Client {
        let logs = LogCapture()
        e2e.scan.watch(logs)
        e2e.scan.lookFor(Secret(kind: "clientSecret", value: BackEnd.clientSecret))
        let keys = InMemoryDPoPKeyStore()
        let dpop = DPoP(keyStore: keys)
        let store = Store()
        let clock = e2e.clock
        let service = AuthenticationService<BoundTokensSDKSchema>(
            configuration: .init(
                baseURL: e2e.backEnd.baseURL,
                client: ClientCredentials(clientID: BackEnd.clientID, clientSecret: BackEnd.clientSecret),
                now: { clock.now },
                logger: logs.logger(label: "e2e.dpop"),
                sessionStore: store,
                receivesServerEvents: false,
                authorizationServerURL: e2e.backEnd.authorizationBaseURL,
                browser: browser,
                authorizationServerIssuer: e2e.backEnd.declaredIssuer,
                proofOfPossession: dpop
            ))
        return Client(service: service, keys: keys, store: store, dpop: dpop)
    }

    /// Signs alice in with the password grant; the key is then in the client's store, and
    /// the scan looks for it in every form it is kept in.
    @discardableResult
    static func signIn(_ client: Client, _ e2e: EndToEnd) async throws -> DPoPKey {
        let details = try await client.service.authenticate(with: SingleStepMethod.password(username: "alice", password: "wonderland"))
        e2e.scan.show(details, as: "what authenticate(with:) returned")
        return try await watchKey(client, e2e)
    }

    /// The client's key, shown to the scan as a secret (PEM, raw, base64 and base64url).
    static func watchKey(_ client: Client, _ e2e: EndToEnd) async throws -> DPoPKey {
        let key = try #require(try await client.keys.load())
        let base64 = key.rawRepresentation.base64EncodedString()
        let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        e2e.scan.lookFor(Secret(kind: "dpopPrivateKey", value: key.pemRepresentation))
        e2e.scan.lookFor(Secret(kind: "dpopPrivateKey", value: base64))
        e2e.scan.lookFor(Secret(kind: "dpopPrivateKey", value: base64URL))
        e2e.scan.show(key, as: "the DPoP key")
        e2e.scan.show(client.store, as: "the session store")
        return key
    }

    static func credential(_ client: Client) throws -> (access: String, refresh: String) {
        let credential = try #require(try client.store.load()?.credential)
        return (credential.accessToken, try #require(credential.refreshToken))
    }

    /// A request sent by hand: `Authorization` and `DPoP` as given.
    static func send(
        _ method: String, _ url: URL, authorization: String?, proof: String?, form: String? = nil
    ) async throws -> (status: Int, challenge: String?, body: String) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        if let proof { request.setValue(proof, forHTTPHeaderField: "DPoP") }
        if let form {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(form.utf8)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "WWW-Authenticate"), String(decoding: data, as: UTF8.self))
    }

    static func me(_ e2e: EndToEnd) -> URL { URL(string: e2e.backEnd.baseURL.absoluteString + "/me")! }
    static func token(_ e2e: EndToEnd) -> URL { URL(string: e2e.backEnd.authorizationBaseURL.absoluteString + "/oauth/token")! }
    static var basic: String { "Basic " + Data("\(BackEnd.clientID):\(BackEnd.clientSecret)".utf8).base64EncodedString() }

    @Test("sign-in binds the tokens to the device's key, and the API accepts them with its proofs")
    func signInBindsTheTokens() async throws {
        try await withEndToEnd(dpop: Self.options) { e2e in
            let client = Self.client(e2e)
            try await Self.signIn(client, e2e)
            let details = try await client.service.me()
            #expect(details.uid == "pw-alice")
            let counters = await e2e.backEnd.counters()
            // The first token request is answered use_dpop_nonce, and sent once more with it.
            #expect(counters.requests("POST /oauth/token") == 2)
            #expect(counters.tokenGrants["password"] == 1)
            #expect(counters.requests("GET /me") == 2)
        }
    }

    @Test("a copied access token is refused as Bearer, as DPoP without a proof, and with another key's proof")
    func aCopiedAccessTokenIsRefused() async throws {
        try await withEndToEnd(dpop: Self.options) { e2e in
            let client = Self.client(e2e)
            try await Self.signIn(client, e2e)
            let (access, _) = try Self.credential(client)
            let nonce = await e2e.backEnd.server.state.currentDPoPNonce()
            let bearer = try await Self.send("GET", Self.me(e2e), authorization: "Bearer \(access)", proof: nil)
            #expect(bearer.status == 401)
            let bare = try await Self.send("GET", Self.me(e2e), authorization: "DPoP \(access)", proof: nil)
            #expect(bare.status == 401)
            let thief = DPoPProofSigner(key: DPoPKey())
            let stolen = try await Self.send(
                "GET", Self.me(e2e), authorization: "DPoP \(access)",
                proof: try await thief.proof(method: .get, url: Self.me(e2e), accessToken: access, nonce: nonce))
            #expect(stolen.status == 401)
            #expect(stolen.challenge?.contains(#"error="invalid_token""#) == true)
            // The device itself still gets through.
            _ = try await client.service.me()
        }
    }

    @Test("a copied refresh token is refused without a proof and with another key's proof")
    func aCopiedRefreshTokenIsRefused() async throws {
        try await withEndToEnd(dpop: Self.options) { e2e in
            let client = Self.client(e2e)
            try await Self.signIn(client, e2e)
            let (_, refresh) = try Self.credential(client)
            let form = "grant_type=refresh_token&refresh_token=\(refresh.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            let nonce = await e2e.backEnd.server.state.currentDPoPNonce()
            let none = try await Self.send("POST", Self.token(e2e), authorization: Self.basic, proof: nil, form: form)
            #expect(none.status == 400)
            #expect(none.body.contains("invalid_grant"))
            let thief = DPoPProofSigner(key: DPoPKey())
            let other = try await Self.send(
                "POST", Self.token(e2e), authorization: Self.basic,
                proof: try await thief.proof(method: .post, url: Self.token(e2e), nonce: nonce), form: form)
            #expect(other.status == 400)
            #expect(other.body.contains("invalid_grant"))
            #expect(await e2e.backEnd.counters().refreshes == 0)
        }
    }

    @Test("a replayed proof is refused, even with the device's key and token")
    func aReplayedProofIsRefused() async throws {
        try await withEndToEnd(dpop: Self.options) { e2e in
            let client = Self.client(e2e)
            let key = try await Self.signIn(client, e2e)
            let (access, _) = try Self.credential(client)
            let nonce = await e2e.backEnd.server.state.currentDPoPNonce()
            let proof = try await DPoPProofSigner(key: key).proof(method: .get, url: Self.me(e2e), accessToken: access, nonce: nonce)
            let first = try await Self.send("GET", Self.me(e2e), authorization: "DPoP \(access)", proof: proof)
            #expect(first.status == 200)
            let replay = try await Self.send("GET", Self.me(e2e), authorization: "DPoP \(access)", proof: proof)
            #expect(replay.status == 401)
            #expect(replay.challenge?.contains(#"error="invalid_dpop_proof""#) == true)
        }
    }

    @Test("a rotated nonce is answered with one retry, no refresh")
    func aRotatedNonceIsRetriedOnce() async throws {
        try await withEndToEnd(dpop: Self.options) { e2e in
            let client = Self.client(e2e)
            try await Self.signIn(client, e2e)
            let before = await e2e.backEnd.counters()
            await e2e.backEnd.server.state.rotateDPoPNonce()
            _ = try await client.service.me()
            let after = await e2e.backEnd.counters()
            #expect(after.requests("GET /me") - before.requests("GET /me") == 2)
            #expect(after.requests("POST /oauth/token") == before.requests("POST /oauth/token"))
            #expect(after.refreshes == 0)
        }
    }

    @Test("a nonce rotated during a refresh storm: 8 callers, one refresh")
    func aNonceRotationDuringARefreshStormGivesOneRefresh() async throws {
        try await withEndToEnd(dpop: Self.options) { e2e in
            let client = Self.client(e2e)
            try await Self.signIn(client, e2e)
            await e2e.advanceTime(by: 3601)
            await e2e.backEnd.server.state.rotateDPoPNonce()
            let before = await e2e.backEnd.counters()
            let callers = 8
            let uids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<callers { group.addTask { try await client.service.me().uid } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(uids == Array(repeating: "pw-alice", count: callers))
            let after = await e2e.backEnd.counters()
            #expect(after.refreshes - before.refreshes == 1)
            #expect(after.rejectedRefreshes == 0)
            #expect(await client.service.state.isAuthenticated)
        }
    }

    @Test("sign-out replaces the key: the old token and the old key no longer work")
    func signOutReplacesTheKey() async throws {
        try await withEndToEnd(dpop: Self.options) { e2e in
            let client = Self.client(e2e)
            let old = try await Self.signIn(client, e2e)
            let (oldAccess, _) = try Self.credential(client)
            _ = await client.service.unauthenticate()
            // The key leaves the store; the sign-out's own revocation may already sign with
            // the next one.
            #expect(await poll { (try? await client.keys.load())?.thumbprint != old.thumbprint })
            let nonce = await e2e.backEnd.server.state.currentDPoPNonce()
            let oldProof = try await DPoPProofSigner(key: old).proof(method: .get, url: Self.me(e2e), accessToken: oldAccess, nonce: nonce)
            let revoked = try await Self.send("GET", Self.me(e2e), authorization: "DPoP \(oldAccess)", proof: oldProof)
            #expect(revoked.status == 401)
            let new = try await Self.signIn(client, e2e)
            #expect(new.thumbprint != old.thumbprint)
            let (newAccess, _) = try Self.credential(client)
            let oldKeyProof = try await DPoPProofSigner(key: old).proof(
                method: .get, url: Self.me(e2e), accessToken: newAccess, nonce: nonce)
            let withOldKey = try await Self.send("GET", Self.me(e2e), authorization: "DPoP \(newAccess)", proof: oldKeyProof)
            #expect(withOldKey.status == 401)
            _ = try await client.service.me()
        }
    }

    @Test("a pushed sign-in: the browser's URL carries client_id and request_uri only")
    func aPushedSignInOpensOnlyTheReference() async throws {
        try await withEndToEnd(dpop: Self.options) { e2e in
            let browser = RecordingBrowser(HeadlessBrowser(username: "alice", password: "wonderland"))
            let client = Self.client(e2e, browser: browser)
            let details = try await client.service.authenticate(with: SingleStepMethod.pushed())
            e2e.scan.show(details, as: "what authenticate(with:) returned")
            _ = try await Self.watchKey(client, e2e)
            let opened = try #require(browser.opened.first)
            let query = try #require(URLComponents(url: opened, resolvingAgainstBaseURL: false)?.queryItems)
            #expect(query.map(\.name) == ["client_id", "request_uri"])
            #expect(await client.service.state.isAuthenticated)
            let counters = await e2e.backEnd.counters()
            #expect(counters.requests("POST /oauth/par") >= 1)
            #expect(counters.tokenGrants["authorization_code"] == 1)
            // The code was bound to the push's key, and the tokens are bound to it.
            let (access, _) = try Self.credential(client)
            let bearer = try await Self.send("GET", Self.me(e2e), authorization: "Bearer \(access)", proof: nil)
            #expect(bearer.status == 401)
        }
    }
}

/// A browser that records the URLs it was asked to open, then lets `inner` open them.
final class RecordingBrowser: Browser, @unchecked Sendable {
    let inner: any Browser
    private let lock = NSLock()
    private var urls: [URL] = []

    init(_ inner: any Browser) { self.inner = inner }

    var opened: [URL] { lock.withLock { urls } }

    func prepareRedirect(to redirectURI: URL) async throws -> URL { try await inner.prepareRedirect(to: redirectURI) }

    func authorize(url: URL, redirectURI: URL) async throws -> URL {
        lock.withLock { urls.append(url) }
        return try await inner.authorize(url: url, redirectURI: redirectURI)
    }

    func dismiss() { inner.dismiss() }
}
