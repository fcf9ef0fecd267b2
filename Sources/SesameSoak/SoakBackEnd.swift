import Foundation
import HTTPTypes
import OpenAPIRuntime
import ReferenceSDK

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The reference back-end's contract as the generated ReferenceSDK expects it, in memory and
/// with faults, as a `ClientTransport`: guest sign-in, the RFC 6749 refresh with rotation,
/// the RFC 6750 `invalid_token` rejection, `me`, `listNotes`, `createNote` and
/// `serverStatus`, all on `https://soak.sesame.test`, plus a foreign origin that redirects
/// lead to. Tokens expire on the soak's clock.
///
/// It is stricter than the reference server in one way: a refresh revokes the access
/// tokens it replaces, so requests in flight with the old one are rejected and must be
/// retried with the new one. Besides answering, it watches the client: credentials sent
/// where they must not go, refresh tokens used after their rotation, refresh requests
/// beyond the schema's window, and notes created twice.
actor SoakBackEnd: ClientTransport {
    static let baseURL = URL(string: "https://soak.sesame.test")!
    static let foreignBaseURL = URL(string: "https://mirror.soak.test")!
    static let client = ClientCredentials(clientID: "soak", clientSecret: "soak-client-secret")

    /// What the back-end did and saw, faults first.
    struct Tally: Sendable {
        var transportErrors = 0
        var delayedRequests = 0
        var transientRefreshFailures = 0
        var terminalRefreshFailures = 0
        var injectedRejections = 0
        var redirects = 0
        /// Refresh requests that reached the transport, whatever happened to them.
        var refreshes = 0
        var signIns = 0
        /// Requests that carried a credential to another origin or to `GET /status`.
        var credentialLeaks = 0
        /// Refresh requests with a refresh token the back-end had already rotated.
        var reusedRefreshTokens = 0
        /// Refresh requests with a refresh token the back-end never issued.
        var unknownRefreshTokens = 0
        /// `createNote` texts the back-end received twice (every request sends its own).
        var replayedWrites = 0
    }

    private struct Session {
        let uid: String
        var refreshToken: String
        var accessTokens: [String] = []
        var revoked = false
        var refreshArrivals: [Date] = []
    }

    private enum RefreshStatus { case active, rotated, revoked }

    private struct AccessToken {
        let session: Int
        let expiresAt: Date
        var revoked = false
    }

    /// A request as the back-end reads it.
    private struct Incoming: Sendable {
        var method: HTTPRequest.Method
        var path: String
        var query: [String: String]
        var headerFields: HTTPFields
        var body: Data
        var isForeign: Bool

        var form: [String: String] { Self.pairs(String(decoding: body, as: UTF8.self), separator: "&") }

        static func pairs(_ text: String, separator: Character) -> [String: String] {
            Dictionary(text.split(separator: separator).map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
                }
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { _, last in last })
        }
    }

    /// How a request is delayed and whether it fails in the transport.
    private struct Plan: Sendable {
        var sleep: Duration?
        var yields: Int
        var fails: Bool
    }

    private let clock: SoakClock
    private let tokenLifetime: Int
    private var random: SoakRandom
    private var faults: FaultRates
    private(set) var tally = Tally()
    private var sessions: [Session] = []
    private var accessTokens: [String: AccessToken] = [:]
    private var refreshTokens: [String: (session: Int, status: RefreshStatus)] = [:]
    private var notes: [String: [Note]] = [:]
    private var noteTexts: Set<String> = []
    private var issued = 0

    init(clock: SoakClock, seed: UInt64, faults: FaultRates, tokenLifetime: Int) {
        self.clock = clock
        self.random = SoakRandom(seed: seed)
        self.faults = faults
        self.tokenLifetime = tokenLifetime
    }

    func setFaults(_ faults: FaultRates) { self.faults = faults }

    /// Refresh requests beyond `window`, over every session.
    func windowViolations(_ window: RefreshWindow) -> Int {
        sessions.reduce(0) { $0 + window.violations(in: $1.refreshArrivals) }
    }

    /// Whether `credential` is the live state of a session of `uid`: its access token is one
    /// the back-end issued to that session and has not revoked, and its refresh token is the
    /// session's current one (not rotated away).
    func isCurrent(_ credential: Credential, ofUser uid: String) -> Bool {
        guard let access = accessTokens[credential.accessToken], !access.revoked,
              let refreshToken = credential.refreshToken, let refresh = refreshTokens[refreshToken],
              refresh.session == access.session, refresh.status == .active
        else { return false }
        let session = sessions[access.session]
        return !session.revoked && session.uid == uid && session.refreshToken == refreshToken
    }

    // MARK: Transport

    nonisolated func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var data = Data()
        if let body { data = try await Data(collecting: body, upTo: 1 << 20) }
        let components = URLComponents(string: request.path ?? "")
        let incoming = Incoming(
            method: request.method, path: components?.path ?? "",
            query: Incoming.pairs(components?.percentEncodedQuery ?? "", separator: "&"),
            headerFields: request.headerFields, body: data,
            isForeign: Self.origin(of: baseURL) != Self.origin(of: Self.baseURL))
        let plan = await admit(incoming)
        if let sleep = plan.sleep { try await Task.sleep(for: sleep) }
        for _ in 0..<plan.yields { await Task.yield() }
        if plan.fails { throw URLError(.networkConnectionLost) }
        return await answer(incoming)
    }

    private nonisolated static func origin(of url: URL) -> String {
        "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port ?? (url.scheme == "https" ? 443 : 80))"
    }

    /// Watches the request as it leaves the client, and draws its latency and transport fault.
    private func admit(_ request: Incoming) -> Plan {
        if request.headerFields[.authorization] != nil, request.isForeign || request.path == "/status" {
            tally.credentialLeaks += 1
        }
        if !request.isForeign, request.method == .post, request.path == "/oauth/token", request.form["grant_type"] == "refresh_token" {
            tally.refreshes += 1
            if let token = request.form["refresh_token"], let session = refreshTokens[token]?.session {
                sessions[session].refreshArrivals.append(clock.now)
            }
        }
        var plan = Plan(sleep: nil, yields: Int.random(in: 0...3, using: &random), fails: false)
        if random.chance(faults.latency) {
            tally.delayedRequests += 1
            plan.sleep = .microseconds(Int.random(in: 0...Int(faults.maximumLatency / .microseconds(1)), using: &random))
        }
        if random.chance(faults.transportError) {
            tally.transportErrors += 1
            plan.fails = true
        }
        return plan
    }

    // MARK: Routes

    private func answer(_ request: Incoming) -> (HTTPResponse, HTTPBody?) {
        if request.isForeign {
            return request.method == .get && request.path == "/notes" ? json([Note]()) : error(404, "not_found")
        }
        switch (request.method, request.path) {
        case (.post, "/auth/guest"):
            return signIn()
        case (.post, "/oauth/token"):
            return token(request)
        case (.get, "/status"):
            return json(ServerStatus(version: "soak"))
        case (.get, "/me"), (.get, "/notes"), (.post, "/notes"):
            return resource(request)
        default:
            return error(404, "not_found")
        }
    }

    private func signIn() -> (HTTPResponse, HTTPBody?) {
        tally.signIns += 1
        let uid = "guest-\(sessions.count + 1)"
        issued += 1
        let refreshToken = "rt-\(issued)"
        sessions.append(Session(uid: uid, refreshToken: refreshToken))
        refreshTokens[refreshToken] = (sessions.count - 1, .active)
        return json(issueAccessToken(session: sessions.count - 1, refreshToken: refreshToken))
    }

    private func token(_ request: Incoming) -> (HTTPResponse, HTTPBody?) {
        let basic = "Basic " + Data("\(Self.client.clientID):\(Self.client.clientSecret ?? "")".utf8).base64EncodedString()
        guard request.headerFields[.authorization] == basic else { return error(401, "invalid_client") }
        let form = request.form
        guard form["grant_type"] == "refresh_token" else { return error(400, "unsupported_grant_type") }
        guard let old = form["refresh_token"], let record = refreshTokens[old] else {
            tally.unknownRefreshTokens += 1
            return error(400, "invalid_grant")
        }
        switch record.status {
        case .rotated:
            tally.reusedRefreshTokens += 1
            return error(400, "invalid_grant")
        case .revoked:
            return error(400, "invalid_grant")
        case .active:
            break
        }
        if random.chance(faults.refreshTerminal) {
            tally.terminalRefreshFailures += 1
            revoke(session: record.session)
            return error(400, "invalid_grant")
        }
        if random.chance(faults.refreshTransient) {
            tally.transientRefreshFailures += 1
            return error(503, "unavailable", headerFields: random.chance(0.5) ? [.retryAfter: "1"] : [:])
        }
        issued += 1
        let refreshToken = "rt-\(issued)"
        refreshTokens[old]?.status = .rotated
        refreshTokens[refreshToken] = (record.session, .active)
        sessions[record.session].refreshToken = refreshToken
        for replaced in sessions[record.session].accessTokens { accessTokens[replaced]?.revoked = true }
        sessions[record.session].accessTokens = []
        return json(issueAccessToken(session: record.session, refreshToken: refreshToken))
    }

    private func issueAccessToken(session: Int, refreshToken: String) -> TokenResponse {
        let accessToken = "at-\(issued)"
        accessTokens[accessToken] = AccessToken(session: session, expiresAt: clock.now.addingTimeInterval(TimeInterval(tokenLifetime)))
        sessions[session].accessTokens.append(accessToken)
        return TokenResponse(accessToken: accessToken, tokenType: "Bearer", expiresIn: tokenLifetime, refreshToken: refreshToken)
    }

    private func revoke(session: Int) {
        sessions[session].revoked = true
        refreshTokens[sessions[session].refreshToken]?.status = .revoked
        for token in sessions[session].accessTokens { accessTokens[token]?.revoked = true }
    }

    /// The operations that need the Bearer token: the RFC 6750 rejection for a token that
    /// is unknown, revoked or expired, and now and then for a good one.
    private func resource(_ request: Incoming) -> (HTTPResponse, HTTPBody?) {
        let header = request.headerFields[.authorization] ?? ""
        guard header.hasPrefix("Bearer "), let token = accessTokens[String(header.dropFirst("Bearer ".count))],
              !token.revoked, clock.now < token.expiresAt, !sessions[token.session].revoked
        else { return invalidToken() }
        if random.chance(faults.rejection) {
            tally.injectedRejections += 1
            return invalidToken()
        }
        let uid = sessions[token.session].uid
        switch (request.method, request.path) {
        case (.get, "/me"):
            return json(AuthenticationDetails(uid: uid, provider: .guest, providerUID: uid, isAnonymous: true))
        case (.get, "/notes"):
            if random.chance(faults.redirect) {
                tally.redirects += 1
                return (HTTPResponse(status: .temporaryRedirect, headerFields: [.location: Self.foreignBaseURL.absoluteString + "/notes"]), nil)
            }
            let limit = request.query["limit"].flatMap { Int($0) } ?? 20
            return json(Array((notes[uid] ?? []).suffix(limit)))
        default:
            guard let new = try? JSONDecoder().decode(NewNote.self, from: request.body) else { return error(400, "invalid_request") }
            if !noteTexts.insert(new.text).inserted { tally.replayedWrites += 1 }
            let note = Note(text: new.text, pinned: new.pinned, id: UUID(), createdAt: clock.now)
            notes[uid, default: []].append(note)
            if notes[uid]!.count > 100 { notes[uid]!.removeFirst(50) }
            return json(note, status: .created)
        }
    }

    // MARK: Responses

    private func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> (HTTPResponse, HTTPBody?) {
        (HTTPResponse(status: status, headerFields: [.contentType: "application/json"]),
         HTTPBody((try? JSONEncoder().encode(value)) ?? Data()))
    }

    private func error(_ status: Int, _ code: String, headerFields: HTTPFields = [:]) -> (HTTPResponse, HTTPBody?) {
        var fields = headerFields
        fields[.contentType] = "application/json"
        return (HTTPResponse(status: .init(code: status), headerFields: fields),
                HTTPBody(#"{"error":"\#(code)","error_description":"the soak back-end says \#(code)"}"#))
    }

    private func invalidToken() -> (HTTPResponse, HTTPBody?) {
        error(401, "invalid_token", headerFields: [.wwwAuthenticate: #"Bearer realm="soak", error="invalid_token""#])
    }
}
