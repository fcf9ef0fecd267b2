import Foundation
import ReferenceSDK
import ReferenceServer
import Testing

/// Malformed bodies over real HTTP: the reference server answers one request with a body
/// of more than 10 MB, or with bytes that are not UTF-8 (its `rawBytes` failure injection),
/// and the runtime turns that into a typed error, leaves the state, the saved session and
/// the credential as they were, and echoes no secret from the body.
@Suite("Malformed responses, end to end", .secretScan)
struct MalformedResponseEndToEndTests {
    /// A token-looking value that every malformed body carries.
    static let secret = "eyJhbGciOiJIUzI1NiJ9.ZTJlLW1hbGZvcm1lZA.c2lnbmF0dXJlLWUyZS0xMjM0NQ"

    @Test(
        "a 2xx body over 10 MB or with invalid UTF-8 is SesameError.decoding and changes nothing",
        arguments: Target.allCases, [Body.tenMegabytes, .invalidUTF8])
    func malformedSuccessBody(_ target: Target, _ body: Body) async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store)
            let details = try await e2e.signInAsGuest(service)
            let saved = try store.load()
            if target == .refresh { await e2e.advanceTime(by: 3601) }
            await e2e.backEnd.server.state.injectFailure(
                InjectedFailure(
                    method: target.method, path: target.path, status: 200, rawBytes: body.bytes(for: target),
                    contentType: "application/json"))

            let failure = await thrownError { try await target.run(on: service) }

            if target == .logout, body == .invalidUTF8 {
                // An operation without a response does not read the body.
                #expect(failure == nil)
            } else {
                guard case SesameError.decoding(let operation, let reason)? = failure else {
                    Issue.record("expected SesameError.decoding, got \(String(describing: failure))")
                    return
                }
                #expect(operation == target.requestName)
                if body == .tenMegabytes { #expect(reason == "$: the response is larger than 8388608 bytes") }
                #expect(!"\(failure!)".contains(Self.secret.prefix(16)))
            }
            #expect(await e2e.backEnd.pendingFailureCount() == 0)
            #expect(await service.state == .authenticated(details))
            #expect(try store.load() == saved)
            // The session still works: with the same credential, or after a refresh once expired.
            #expect(try await service.me().uid == details.uid)
            if target == .refresh {
                // A Bool: a failure prints no token.
                let replaced = try store.load()?.credential.accessToken != saved?.credential.accessToken
                #expect(replaced, "the saved access token was not replaced")
            } else {
                #expect(try store.load() == saved)
            }
        }
    }

    @Test("a 503 whose body is over 10 MB is the SDK's error with its status, the body dropped")
    func hugeErrorBody() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store)
            let details = try await e2e.signInAsGuest(service)
            let saved = try store.load()
            await e2e.backEnd.server.state.injectFailure(
                InjectedFailure(
                    method: "GET", path: "/me", status: 503, rawBytes: Body.tenMegabytes.bytes(for: .me), contentType: "application/json"))

            let error = await #expect(throws: ReferenceSDKError.self) { try await service.me() }

            #expect(error == .unknown(ServerErrorResponse(status: 503, code: nil, message: nil, category: .transient)))
            #expect(await service.state == .authenticated(details))
            #expect(try store.load() == saved)
        }
    }

    @Test("a sign-in whose token response is not UTF-8 fails with SesameError.decoding and signs no one in")
    func signInWithInvalidUTF8() async throws {
        try await withEndToEnd { e2e in
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store)
            await e2e.backEnd.server.state.injectFailure(
                InjectedFailure(
                    method: "POST", path: "/auth/guest", status: 200, rawBytes: Body.invalidUTF8.bytes(for: .refresh),  // a token response
                    contentType: "application/json"))

            let error = await #expect(throws: SesameError.self) { try await e2e.signInAsGuest(service) }

            #expect(error == .decoding(operation: "guest.authenticate", reason: "$: the data is not valid JSON"))
            #expect(await service.state == .unauthenticated)
            let stored = try store.load()
            #expect(stored == nil)
            #expect(await service.ongoingAuthentication == nil)
        }
    }

    // MARK: Targets and bodies

    /// A request whose response the runtime reads.
    enum Target: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case me, logout, identities, detachIdentity, listNotes, createNote, serverStatus, refresh

        var testDescription: String { rawValue }

        var requestName: String { rawValue }

        var method: String {
            switch self {
            case .me, .identities, .listNotes, .serverStatus: "GET"
            case .logout, .createNote, .refresh: "POST"
            case .detachIdentity: "DELETE"
            }
        }

        var path: String {
            switch self {
            case .me: "/me"
            case .refresh: "/oauth/token"
            case .logout: "/auth/logout"
            case .identities: "/identities"
            case .detachIdentity: "/identities/{provider}"
            case .listNotes, .createNote: "/notes"
            case .serverStatus: "/status"
            }
        }

        /// A well-formed body with `"session_secret":"<secret>"` in its object (or its item).
        var wellFormed: String {
            let secret = #""session_secret":"\#(MalformedResponseEndToEndTests.secret)""#
            let note = #"{"id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","text":"milk","createdAt":"2024-05-01T12:00:00Z",\#(secret)}"#
            return switch self {
            case .me: #"{"uid":"u1","provider":"guest","providerUID":"p1",\#(secret)}"#
            case .logout: #"{\#(secret)}"#
            case .identities: #"[{"provider":"guest","providerUID":"p1","attachedOn":"2024-05-01",\#(secret)}]"#
            case .detachIdentity: #"{"accountDestroyed":false,\#(secret)}"#
            case .listNotes: "[\(note)]"
            case .createNote: note
            case .serverStatus: #"{"status":"ok",\#(secret)}"#
            case .refresh: #"{"access_token":"at-new","token_type":"Bearer","expires_in":3600,\#(secret)}"#
            }
        }

        func run(on service: Service) async throws {
            switch self {
            case .me, .refresh: _ = try await service.me()
            case .logout: try await service.logout()
            case .identities: _ = try await service.identities()
            case .detachIdentity: _ = try await service.detachIdentity(provider: .guest)
            case .listNotes: _ = try await service.listNotes()
            case .createNote: _ = try await service.createNote(NewNote(text: "milk"))
            case .serverStatus: _ = try await service.serverStatus()
            }
        }
    }

    enum Body: String, Sendable, CustomTestStringConvertible {
        /// The well-formed body with 10 000 000 more characters in the secret's string.
        case tenMegabytes = "10 MB body"
        /// The well-formed body with bytes no UTF-8 text has after the secret.
        case invalidUTF8 = "invalid UTF-8"

        var testDescription: String { rawValue }

        func bytes(for target: Target) -> Data {
            let parts = target.wellFormed.components(separatedBy: MalformedResponseEndToEndTests.secret)
            let inserted: Data =
                switch self {
                case .tenMegabytes: Data(repeating: UInt8(ascii: "x"), count: 10_000_000)
                case .invalidUTF8: Data([0xFF, 0xFE, 0xC3, 0x28])
                }
            return Data(parts[0].utf8) + Data(MalformedResponseEndToEndTests.secret.utf8) + inserted + Data(parts[1].utf8)
        }
    }
}

/// The error `body` throws, nil when it returns.
private func thrownError(by body: () async throws -> Void) async -> (any Error)? {
    do {
        try await body()
        return nil
    } catch {
        return error
    }
}
