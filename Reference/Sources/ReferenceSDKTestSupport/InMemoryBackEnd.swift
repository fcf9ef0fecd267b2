import Foundation
import HTTPTypes
import OpenAPIRuntime
import ReferenceSDK
import Sesame
import SesameTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The reference back-end's contract as the generated ReferenceSDK expects it, in memory and
/// with faults, as a `ClientTransport`: the soak drives it at scale, and the malformed-response
/// tests script its answers. It serves every sign-in method (guest, internal challenge and
/// verify, password, custom), the RFC 6749 refresh with rotation, the RFC 6750
/// `invalid_token` rejection, and every operation, on ``baseURL``; a redirect leads to
/// ``foreignBaseURL``, which answers `GET /notes` only. Tokens expire on the injected clock.
///
/// Two kinds of faults: random ones drawn from ``FaultRates`` with a seeded generator (latency,
/// transport errors, failed refreshes, rejections, redirects), and scripted ones, where
/// ``answerNext(_:with:)`` gives the next request to a route an answer byte for byte.
///
/// It is stricter than the reference server in one way: a refresh revokes the access tokens
/// it replaces, so requests in flight with the old one are rejected and must be retried with
/// the new one. Besides answering, it watches the client (``tally``): credentials sent where
/// they must not go, refresh tokens used after their rotation, refresh requests beyond the
/// schema's window, and notes created twice.
public actor InMemoryBackEnd: ClientTransport {
    /// The origin the back-end serves.
    public nonisolated let baseURL: URL
    /// The other origin that injected redirects lead to.
    public nonisolated let foreignBaseURL: URL
    /// The client that the token endpoint accepts, in HTTP Basic.
    public nonisolated let client: ClientCredentials
    /// How long the access tokens it issues last, in seconds.
    public nonisolated let tokenLifetime: Int

    let now: @Sendable () -> Date
    let keepsRequests: Bool
    var random: SeededRandom
    var faults: FaultRates
    /// What the back-end did and saw.
    public internal(set) var tally = Tally()
    /// Every request received, in order, when the back-end keeps them (see `init`).
    public internal(set) var received: [Received] = []
    /// Every access and refresh token issued so far.
    public internal(set) var issuedTokens: [String] = []
    /// The texts of the notes created whose answer was lost (``FaultRates/lostResponse``).
    public internal(set) var lostWrites: Set<String> = []
    var answers: [String: Answer] = [:]
    var sessions: [Session] = []
    var accessTokens: [String: AccessToken] = [:]
    var refreshTokens: [String: (session: Int, status: RefreshStatus)] = [:]
    var notes: [String: [Note]] = [:]
    var noteTexts: Set<String> = []
    var issued = 0

    struct Session {
        let uid: String
        let provider: Provider
        var refreshToken: String
        var accessTokens: [String] = []
        var revoked = false
        var refreshArrivals: [Date] = []
    }

    enum RefreshStatus { case active, rotated, revoked }

    struct AccessToken {
        let session: Int
        let expiresAt: Date
        var revoked = false
    }

    /// Creates a back-end for `client` on `baseURL`, reading the time from `now`.
    /// - Parameters:
    ///   - seed: names the sequence of random faults and latencies.
    ///   - faults: how often each random fault happens (none by default).
    ///   - tokenLifetime: the lifetime of access tokens, in seconds.
    ///   - keepsRequests: whether ``received`` keeps every request (off for long soaks).
    public init(
        baseURL: URL, foreignBaseURL: URL = URL(string: "https://mirror.sesame.test")!,
        client: ClientCredentials, now: @escaping @Sendable () -> Date, seed: UInt64 = 0,
        faults: FaultRates = .none, tokenLifetime: Int = 3600, keepsRequests: Bool = true
    ) {
        self.baseURL = baseURL
        self.foreignBaseURL = foreignBaseURL
        self.client = client
        self.now = now
        self.random = SeededRandom(seed: seed)
        self.faults = faults
        self.tokenLifetime = tokenLifetime
        self.keepsRequests = keepsRequests
    }

    /// Changes how often random faults happen, from the next request on.
    public func setFaults(_ faults: FaultRates) { self.faults = faults }

    /// Answers the next request to `route` (`POST /oauth/token`) with `answer` instead, byte
    /// for byte, whatever the request says.
    public func answerNext(_ route: String, with answer: Answer) {
        answers[route] = answer
    }

    /// Whether an answer set with ``answerNext(_:with:)`` is still waiting for its request.
    public var hasPendingAnswers: Bool { !answers.isEmpty }

    /// The refresh requests that reached the back-end, whatever happened to them.
    public var refreshCount: Int { tally.refreshes }

    /// Refresh requests beyond `window`, over every session.
    public func windowViolations(_ window: RefreshWindow) -> Int {
        sessions.reduce(0) { $0 + window.violations(in: $1.refreshArrivals) }
    }

    /// Whether `credential` is the live state of a session of `uid`: its access token is one
    /// the back-end issued to that session and has not revoked, and its refresh token is the
    /// session's current one (not rotated away).
    public func isCurrent(_ credential: Credential, ofUser uid: String) -> Bool {
        guard let access = accessTokens[credential.accessToken], !access.revoked,
            let refreshToken = credential.refreshToken, let refresh = refreshTokens[refreshToken],
            refresh.session == access.session, refresh.status == .active
        else { return false }
        let session = sessions[access.session]
        return !session.revoked && session.uid == uid && session.refreshToken == refreshToken
    }

    // MARK: Transport

    public nonisolated func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws
        -> (HTTPResponse, HTTPBody?)
    {
        var data = Data()
        if let body { data = try await Data(collecting: body, upTo: 1 << 20) }
        let components = URLComponents(string: request.path ?? "")
        let incoming = Incoming(
            method: request.method, path: components?.path ?? "",
            query: formFields(components?.percentEncodedQuery ?? ""),
            headerFields: request.headerFields, body: data,
            isForeign: Self.origin(of: baseURL) != Self.origin(of: self.baseURL))
        let plan = await admit(incoming)
        if let sleep = plan.sleep { try await Task.sleep(for: sleep) }
        for _ in 0..<plan.yields { await Task.yield() }
        if plan.fails { throw URLError(.networkConnectionLost) }
        let answered = await answer(incoming)
        if plan.losesAnswer, (200..<300).contains(answered.status) {
            await loseAnswer(to: incoming)
            throw URLError(.networkConnectionLost)
        }
        return answered.response
    }

    /// Whether `text` names a note the back-end created.
    public func created(_ text: String) -> Bool { noteTexts.contains(text) }

    /// Records that the answer to `request`, applied, never reaches the client.
    private func loseAnswer(to request: Incoming) {
        tally.lostResponses += 1
        if let text = Self.noteText(of: request) { lostWrites.insert(text) }
    }

    /// The text of a `createNote` request, nil for any other.
    private static func noteText(of request: Incoming) -> String? {
        guard !request.isForeign, request.method == .post, request.path == "/notes" else { return nil }
        return (try? JSONDecoder().decode(NewNote.self, from: request.body))?.text
    }

    private nonisolated static func origin(of url: URL) -> String {
        "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port ?? (url.scheme == "https" ? 443 : 80))"
    }

    /// How a request is delayed, whether it fails in the transport, and whether its answer is
    /// lost once applied.
    private struct Plan: Sendable {
        var sleep: Duration?
        var yields: Int
        var fails: Bool
        var losesAnswer = false
    }

    /// Watches the request as it leaves the client, and draws its latency and transport fault.
    private func admit(_ request: Incoming) -> Plan {
        if keepsRequests {
            received.append(Received(route: request.route, authorization: request.headerFields[.authorization], form: request.form))
        }
        if request.headerFields[.authorization] != nil, request.isForeign || request.path == "/status" {
            tally.credentialLeaks += 1
        }
        if !request.isForeign, request.method == .post, request.path == "/oauth/token", request.form["grant_type"] == "refresh_token" {
            tally.refreshes += 1
            if let token = request.form["refresh_token"], let session = refreshTokens[token]?.session {
                sessions[session].refreshArrivals.append(now())
            }
        }
        if let text = Self.noteText(of: request), noteTexts.contains(text) { tally.resentWrites += 1 }
        var plan = Plan(sleep: nil, yields: Int.random(in: 0...3, using: &random), fails: false)
        if random.chance(faults.latency) {
            tally.delayedRequests += 1
            plan.sleep = .microseconds(Int.random(in: 0...Int(faults.maximumLatency / .microseconds(1)), using: &random))
        }
        if random.chance(faults.transportError) {
            tally.transportErrors += 1
            plan.fails = true
        }
        // Operations only: a lost sign-in or refresh answer is another fault (a session or a
        // rotation the client never learns of), which this back-end does not inject.
        let isOperation = !request.path.hasPrefix("/auth/") && request.path != "/oauth/token"
        if isOperation, faults.lostResponse > 0, random.chance(faults.lostResponse) { plan.losesAnswer = true }
        return plan
    }
}
