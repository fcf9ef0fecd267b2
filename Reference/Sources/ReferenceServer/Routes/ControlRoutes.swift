import Foundation
import HTTPTypes
import Hummingbird

/// `/_control`: the test and demo knobs, JSON in and out, no authentication.
/// docs/reference-server.md documents every endpoint.
struct ControlRoutes {
    /// The path of the downstream 401, the one control route that is counted.
    static let downstreamPath = "/_control/downstream-401"

    let state: ReferenceServerState

    /// Registers every control route but the downstream 401, which goes through the
    /// request middleware so it is counted and can have failures injected.
    func register(on router: Router<ServerRequestContext>) {
        let control = router.group("/_control")
        control.post("/reset") { _, _ in
            await state.reset()
            return Responses.noContent()
        }
        control.get("/counters") { _, _ in
            try Responses.json(await state.counters())
        }
        control.post("/token-lifetime") { request, _ in
            struct Body: Codable { var seconds: Double }
            let body = try await RequestDecoding.json(Body.self, from: request)
            guard body.seconds >= 0 else { throw OAuthError.invalidRequest("`seconds` must not be negative.") }
            await state.setAccessTokenLifetime(.milliseconds(Int64(body.seconds * 1000)))
            return try Responses.json(body)
        }
        control.post("/latency") { request, _ in
            struct Body: Codable { var milliseconds: Int }
            let body = try await RequestDecoding.json(Body.self, from: request)
            guard body.milliseconds >= 0 else { throw OAuthError.invalidRequest("`milliseconds` must not be negative.") }
            await state.setLatency(.milliseconds(body.milliseconds))
            return try Responses.json(body)
        }
        control.get("/clock") { _, _ in
            try Responses.json(["now": WireCoding.dateTime(await state.now())])
        }
        control.post("/clock/advance") { request, _ in
            struct Body: Codable { var seconds: Double }
            let body = try await RequestDecoding.json(Body.self, from: request)
            await state.advanceClock(by: .milliseconds(Int64(body.seconds * 1000)))
            return try Responses.json(["now": WireCoding.dateTime(await state.now())])
        }
        control.get("/requests") { _, _ in
            try Responses.json(await state.requestLog())
        }
        control.delete("/requests") { _, _ in
            await state.clearRequestLog()
            return Responses.noContent()
        }
        control.get("/authorization") { _, _ in
            try Responses.json(["denyConsent": await state.isDenyingConsent()])
        }
        control.post("/authorization") { request, _ in
            struct Body: Codable { var denyConsent: Bool }
            let body = try await RequestDecoding.json(Body.self, from: request)
            await state.setDenyConsent(body.denyConsent)
            return try Responses.json(body)
        }
        control.get("/issuer") { _, _ in
            try Responses.json(["mode": await state.currentIssuerMode().rawValue])
        }
        control.post("/issuer") { request, _ in
            struct Body: Codable { var mode: IssuerMode }
            let body = try await RequestDecoding.json(Body.self, from: request)
            await state.setIssuerMode(body.mode)
            return try Responses.json(body)
        }
        registerFailures(on: control)
        registerUsers(on: control)
        registerEvents(on: control)
        registerDevice(on: control)
        control.get("/challenges/{id}") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard let info = await state.challenge(id: id) else { throw OAuthError.notFound("No challenge \(id).") }
            return try Responses.json(info)
        }
        control.get("/challenges") { request, _ in
            guard let identifier = request.uri.queryParameters["identifier"].map(String.init) else {
                throw OAuthError.invalidRequest("Give `identifier` in the query.")
            }
            guard let info = await state.latestChallenge(identifier: identifier) else {
                throw OAuthError.notFound("No challenge for \(identifier).")
            }
            return try Responses.json(info)
        }
        OpenIDRoutes(state: state).registerControl(on: control)
    }

    /// `GET /_control/downstream-401`: a 401 from something that is not the auth server:
    /// a Basic challenge, no `invalid_token`. Register after the request middleware.
    func registerDownstream(on router: Router<ServerRequestContext>) {
        router.get(RouterPath(Self.downstreamPath)) { _, _ in
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = "Basic realm=\"downstream\""
            return try Responses.json(
                ErrorBody(error: "unauthorized", error_description: "A downstream service refused the request."),
                status: .unauthorized,
                headers: headers
            )
        }
    }

    private func registerFailures(on control: RouterGroup<ServerRequestContext>) {
        control.post("/failures") { request, _ in
            let failure = try await RequestDecoding.json(InjectedFailure.self, from: request)
            await state.injectFailure(failure)
            return try Responses.json(await state.pendingFailures(), status: .created)
        }
        control.get("/failures") { _, _ in
            try Responses.json(await state.pendingFailures())
        }
        control.delete("/failures") { _, _ in
            await state.clearFailures()
            return Responses.noContent()
        }
    }

    private func registerUsers(on control: RouterGroup<ServerRequestContext>) {
        control.get("/users") { request, _ in
            let query = request.uri.queryParameters
            if let providerName = query["provider"], let providerUID = query["providerUID"] {
                guard let provider = Provider(rawValue: String(providerName)) else {
                    throw OAuthError.invalidRequest("`\(providerName)` is not a provider.")
                }
                let uid = await state.userID(provider: provider, providerUID: String(providerUID))
                return try Responses.json(uid.map { [$0] } ?? [])
            }
            return try Responses.json(await state.userIDs())
        }
        control.post("/users/{uid}/revoke") { request, context in
            struct Body: Decodable { var reason: RevocationReason? }
            let uid = context.parameters.get("uid") ?? ""
            let data = try await RequestDecoding.body(of: request)
            let reason: RevocationReason
            do {
                reason = data.isEmpty ? .adminAction : try JSONDecoder().decode(Body.self, from: data).reason ?? .adminAction
            } catch {
                throw OAuthError.invalidRequest("`reason` must be one of signedOutElsewhere, passwordChanged, adminAction.")
            }
            do {
                let count = try await state.revokeTokens(ofUser: uid, reason: reason)
                return try Responses.json(["revokedSessions": count])
            } catch ControlError.unknownUser {
                throw OAuthError.notFound("No user \(uid).")
            }
        }
        control.post("/users/{uid}/identities") { request, context in
            struct Body: Decodable {
                var provider: Provider
                var providerUID: String
            }
            let uid = context.parameters.get("uid") ?? ""
            let body = try await RequestDecoding.json(Body.self, from: request)
            do {
                try await state.attachIdentity(toUser: uid, provider: body.provider, providerUID: body.providerUID)
                return Responses.noContent()
            } catch ControlError.unknownUser {
                throw OAuthError.notFound("No user \(uid).")
            }
        }
    }

    private func registerEvents(on control: RouterGroup<ServerRequestContext>) {
        control.post("/users/{uid}/events") { request, context in
            struct Body: Decodable {
                var event: String
                var data: JSONValue?
                var rawData: String?
            }
            let uid = context.parameters.get("uid") ?? ""
            let body = try await RequestDecoding.json(Body.self, from: request)
            let text = try body.rawData ?? WireCoding.jsonString(body.data ?? .object([:]))
            do {
                return try Responses.json(try await state.pushEvent(toUser: uid, name: body.event, data: text), status: .created)
            } catch ControlError.invalidEventName {
                throw OAuthError.invalidRequest("`event` must be a non-empty name on one line.")
            }
        }
        control.get("/users/{uid}/events") { _, context in
            try Responses.json(await state.bufferedEvents(ofUser: context.parameters.get("uid") ?? ""))
        }
        control.get("/event-streams") { request, _ in
            let uid = request.uri.queryParameters["uid"].map(String.init)
            return try Responses.json(["open": await state.openEventStreams(ofUser: uid)])
        }
        control.post("/event-streams/disconnect") { request, _ in
            let uid = request.uri.queryParameters["uid"].map(String.init)
            await state.disconnectEventStreams(ofUser: uid)
            return Responses.noContent()
        }
    }
}
