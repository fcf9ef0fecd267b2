import Foundation
import Sesame
import HTTPTypes
import OpenAPIRuntime
import ReferenceSDK

extension InMemoryBackEnd {
    /// A scripted answer if one waits for the route, else the contract's answer.
    func answer(_ request: Incoming) -> Answer {
        if let scripted = answers.removeValue(forKey: request.route) { return scripted }
        if request.isForeign {
            return request.method == .get && request.path == "/notes" ? json([Note]()) : error(404, "not_found")
        }
        switch (request.method, request.path) {
        case (.post, "/auth/guest"):
            return json(signIn(provider: .guest))
        case (.post, "/auth/internal/challenge"):
            return json(Challenge(challengeId: UUID(), channel: .email, expiresAt: now().addingTimeInterval(600)))
        case (.post, "/auth/internal/verify"):
            return json(signIn(provider: .internal))
        case (.post, "/auth/custom"):
            return json(signIn(provider: .custom))
        case (.post, "/oauth/token"):
            return token(request)
        case (.get, "/status"):
            return json(ServerStatus(version: "in-memory"))
        default:
            return resource(request)
        }
    }

    /// A new session for a new user of `provider`, and its first tokens.
    private func signIn(provider: Provider) -> TokenResponse {
        tally.signIns += 1
        let uid = "\(provider.rawValue)-\(sessions.count + 1)"
        let refreshToken = newToken("rt")
        sessions.append(Session(uid: uid, provider: provider, refreshToken: refreshToken))
        refreshTokens[refreshToken] = (sessions.count - 1, .active)
        return issueAccessToken(session: sessions.count - 1, refreshToken: refreshToken)
    }

    /// `POST /oauth/token`: the client in HTTP Basic, then the password or refresh grant.
    private func token(_ request: Incoming) -> Answer {
        let basic = "Basic " + Data("\(client.clientID):\(client.clientSecret ?? "")".utf8).base64EncodedString()
        guard request.headerFields[.authorization] == basic else { return error(401, "invalid_client") }
        let form = request.form
        if form["grant_type"] == "password", form["username"] != nil, form["password"] != nil {
            return json(signIn(provider: .password))
        }
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
        let refreshToken = newToken("rt")
        refreshTokens[old]?.status = .rotated
        refreshTokens[refreshToken] = (record.session, .active)
        sessions[record.session].refreshToken = refreshToken
        for replaced in sessions[record.session].accessTokens { accessTokens[replaced]?.revoked = true }
        sessions[record.session].accessTokens = []
        return json(issueAccessToken(session: record.session, refreshToken: refreshToken))
    }

    /// A new token, `<prefix>-<number>-<UUID>`: numbered to read in a failure, and long
    /// enough that a scan for it cannot match something else by chance.
    private func newToken(_ prefix: String) -> String {
        issued += 1
        let token = "\(prefix)-\(issued)-\(UUID().uuidString)"
        issuedTokens.append(token)
        return token
    }

    private func issueAccessToken(session: Int, refreshToken: String) -> TokenResponse {
        let accessToken = newToken("at")
        accessTokens[accessToken] = AccessToken(session: session, expiresAt: now().addingTimeInterval(TimeInterval(tokenLifetime)))
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
    private func resource(_ request: Incoming) -> Answer {
        let header = request.headerFields[.authorization] ?? ""
        guard header.hasPrefix("Bearer "), let token = accessTokens[String(header.dropFirst("Bearer ".count))],
            !token.revoked, now() < token.expiresAt, !sessions[token.session].revoked
        else { return invalidToken() }
        if random.chance(faults.rejection) {
            tally.injectedRejections += 1
            return invalidToken()
        }
        let session = sessions[token.session]
        let uid = session.uid
        let identity = Identity(provider: session.provider, providerUID: uid, attachedOn: CalendarDate(year: 2024, month: 5, day: 1)!)
        switch (request.method, request.path) {
        case (.get, "/me"):
            return json(
                AuthenticationDetails(
                    uid: uid, provider: session.provider, providerUID: uid,
                    isAnonymous: session.provider == .guest))
        case (.get, "/identities"):
            return json([identity])
        case (.delete, let path) where path.hasPrefix("/identities/"):
            return json(DetachResult(accountDestroyed: false, remaining: []))
        case (.post, "/auth/logout"), (.delete, "/account"):
            revoke(session: token.session)
            return Answer(status: 204, body: Data())
        case (.get, "/notes"):
            if random.chance(faults.redirect) {
                tally.redirects += 1
                return Answer(status: 307, headerFields: [.location: foreignBaseURL.absoluteString + "/notes"], body: nil)
            }
            let limit = request.query["limit"].flatMap { Int($0) } ?? 20
            return json(Array((notes[uid] ?? []).suffix(limit)))
        case (.post, "/notes"):
            guard let new = try? JSONDecoder().decode(NewNote.self, from: request.body) else { return error(400, "invalid_request") }
            if !noteTexts.insert(new.text).inserted { tally.replayedWrites += 1 }
            let note = Note(text: new.text, pinned: new.pinned, id: UUID(), createdAt: now())
            notes[uid, default: []].append(note)
            if notes[uid]!.count > 100 { notes[uid]!.removeFirst(50) }
            return json(note, status: 201)
        default:
            return error(404, "not_found")
        }
    }

    // MARK: Responses

    private func json(_ value: some Encodable, status: Int = 200) -> Answer {
        Answer(status: status, contentType: "application/json", body: (try? JSONEncoder().encode(value)) ?? Data())
    }

    private func error(_ status: Int, _ code: String, headerFields: HTTPFields = [:]) -> Answer {
        Answer(
            status: status, contentType: "application/json", headerFields: headerFields,
            body: Data(#"{"error":"\#(code)","error_description":"the in-memory back-end says \#(code)"}"#.utf8))
    }

    private func invalidToken() -> Answer {
        error(401, "invalid_token", headerFields: [.wwwAuthenticate: #"Bearer realm="sesame", error="invalid_token""#])
    }
}
