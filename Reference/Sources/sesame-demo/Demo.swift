import Foundation
import GRDB
import Logging
import ReferenceSDK
import SesameStore
import SesameTestSupport

/// Walks the generated SDK through a whole life against the reference back-end, checking
/// at each step that what should happen did: any surprise throws ``DemoFailure``.
final class Demo {
    let backEnd: DemoBackEnd
    /// Real time plus whatever the demo fast-forwards, so that an hour-long token can expire
    /// in a second; the app and the back-end both read it.
    let clock: ManualClock
    /// Where the app keeps its contexts (a temporary folder, removed at the end).
    let directory: URL
    let logger: Logger
    /// The app as it runs: replaced when the demo relaunches it.
    private(set) var app: AppSession<ReferenceSDKSchema>
    var service: AuthenticationService<ReferenceSDKSchema> { app.auth }
    let log = EventLog()

    private init(backEnd: DemoBackEnd, clock: ManualClock, directory: URL, logger: Logger) throws {
        self.backEnd = backEnd
        self.clock = clock
        self.directory = directory
        self.logger = logger
        self.app = try Self.launch(backEnd: backEnd, clock: clock, directory: directory, logger: logger)
    }

    /// The app's one object: the service, the user contexts and the session store, from the
    /// generated SDK's defaults (`ReferenceSDKStore.definition`, the SQLite session store).
    private static func launch(
        backEnd: DemoBackEnd, clock: ManualClock, directory: URL, logger: Logger,
        stores: StoreDefinition = ReferenceSDKStore.definition
    ) throws -> AppSession<ReferenceSDKSchema> {
        try AppSession(
            configuration: .init(
                service: .init(
                    baseURL: backEnd.baseURL,
                    client: ClientCredentials(clientID: "sesame-demo-app"),
                    now: { clock.now }, logger: logger, eventStreamReconnectDelay: .milliseconds(100),
                    authorizationServerURL: backEnd.authorizationBaseURL,
                    browser: HeadlessBrowser(username: "alice", password: "wonderland"),
                    authorizationServerIssuer: backEnd.issuer,
                    // A device sign-in's waits between polls pass at once: the demo fast-forwards.
                    sleep: { duration in
                        try await Task.sleep(for: .milliseconds(50))
                        clock.advance(by: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
                    }),
                stores: stores, directory: directory))
    }

    /// Starts the back-end, runs every step, and stops the back-end whatever happens.
    static func run(verbose: Bool) async throws {
        let clock = ManualClock.followingRealTime()
        let backEnd = try await DemoBackEnd.start(now: { clock.now })
        var logger = Logger(label: "sesame")
        logger.logLevel = verbose ? .info : .critical
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo: Demo
        do {
            demo = try Demo(backEnd: backEnd, clock: clock, directory: directory, logger: logger)
        } catch {
            await backEnd.stop()
            throw error
        }
        do {
            try await demo.walk()
        } catch {
            demo.log.cancel()
            await backEnd.stop()
            throw error
        }
        demo.log.cancel()
        await backEnd.stop()
    }

    func walk() async throws {
        try await start()
        let guest = try await signInAsGuest()
        let ada = try await signInWithCode(replacing: guest)
        try await useTheBackEnd(as: ada)
        try await keepDataOnTheDevice(for: ada, guest: guest)
        try await receiveServerEvents(for: ada)
        try await expireAndRefresh()
        try await relaunchOffline(as: ada)
        try await goOfflineWhileRevoked(ada)
        try await signInAndOut()
        try await signInATV()
        try await upgradeTheApp()
        try await shareTheSessionWithAWidget()
        let openID = try await signInWithOpenID()
        try await rotateKeysThenSignIn(with: openID)
        try await stepUp(with: openID)
        try await bindTokensToTheDevice()
    }

    // MARK: Steps

    private func start() async throws {
        Console.step(1, "The reference back-end starts in-process")
        Console.info("the API listens on \(backEnd.baseURL.absoluteString)")
        Console.info(
            "the authorization server (token, login page, revocation) on \(backEnd.authorizationBaseURL.absoluteString): another origin")
        let status = try await service.serverStatus()
        try check(status.status == "ok", "the back-end's status is \(status.status)")
        Console.ok("GET /status needs no sign-in: \(status.status), version \(status.version ?? "?")")
        Console.info(
            "AuthenticationService<ReferenceSDKSchema> talks to it over HTTP (URLSession), as sesame-demo-app: a public client, with no secret, as every app is (RFC 8252 §8.4)"
        )
        Console.info("every event the service publishes is printed as it arrives, marked ◆")
        let mark = log.count
        await log.attach(to: service)
        try await log.waitForState(after: mark, .unauthenticated)
    }

    private func signInAsGuest() async throws -> AuthenticationDetails {
        Console.step(2, "Sign in as a guest (single step: POST /auth/guest)")
        let mark = log.count
        let guest = try await service.authenticate(with: SingleStepMethod.guest)
        try await log.waitForState(after: mark, .authenticated(guest))
        try check(guest.isAnonymous && guest.provider == .guest, "the guest account is not anonymous")
        Console.ok("signed in: an anonymous account was made for this device")
        return guest
    }

    private func signInWithCode(replacing guest: AuthenticationDetails) async throws -> AuthenticationDetails {
        Console.step(3, "Sign in with a one-time code (multi-step: internal)")
        let identifier = "ada@example.com"
        let progress = try await service.initializeAuthentication(with: MultiStepMethod.internal(identifier: identifier))
        guard case .needsInput(let ongoing) = progress else { throw DemoFailure("initialize did not stop for the code") }
        Console.info("initialize → POST /auth/internal/challenge; the method now waits: \(ongoing)")
        guard let sent = await backEnd.latestCode(for: identifier) else { throw DemoFailure("the back-end sent no code") }
        Console.info("the back-end \"sent\" code \(sent.code) by \(sent.channel) to \(identifier) (the demo reads it from the control API)")

        let wrong = sent.code == "000000" ? "111111" : "000000"
        do {
            try await service.continueAuthentication(with: AuthenticationInput.internalContinue(code: wrong))
            throw DemoFailure("the wrong code \(wrong) was accepted")
        } catch ReferenceSDKError.invalidCode(let response) {
            Console.info("a mistyped code \(wrong) is refused: \(response)")
        }
        try check(await service.state == .authenticated(guest), "a refused code changed the state")
        try check(await service.ongoingAuthentication?.nextStep == "continue", "a refused code ended the sign-in")
        Console.ok("a failed step changes nothing: still the guest, and the step can be retried")

        let mark = log.count
        let finished = try await service.continueAuthentication(with: AuthenticationInput.internalContinue(code: sent.code))
        guard case .authenticated(let ada) = finished else { throw DemoFailure("the right code did not sign in") }
        try await log.waitForState(after: mark, .authenticated(ada))
        try check(ada.provider == .internal && ada.uid != guest.uid, "the code signed in the wrong account")
        Console.ok("continue → POST /auth/internal/verify: signed in as \(ada.email ?? ada.uid)")
        return ada
    }

    private func useTheBackEnd(as ada: AuthenticationDetails) async throws {
        Console.step(4, "Authenticated calls (generated operations, Bearer credential added by the runtime)")
        let me = try await service.me()
        try check(me.uid == ada.uid, "me() named another user")
        Console.ok("me(): \(Console.who(me)), signed in at \(me.authenticatedAt.map(Console.time) ?? "?")")
        let first = try await service.createNote(NewNote(text: "Buy oat milk"))
        let second = try await service.createNote(NewNote(text: "Read docs/runtime.md", pinned: true))
        Console.ok("createNote() twice: \(first.id.uuidString.lowercased().prefix(8))…, \(second.id.uuidString.lowercased().prefix(8))…")
        let notes = try await service.listNotes()
        try check(notes == [first, second], "listNotes() returned \(notes.count) notes")
        let pinned = try await service.listNotes(pinned: true)
        try check(pinned == [second], "listNotes(pinned: true) returned \(pinned.count) notes")
        Console.ok("listNotes(): \(notes.map { "“\($0.text)”" }.joined(separator: ", ")); pinned only: \(pinned.count)")
        let identities = try await service.identities()
        try check(identities.map(\.provider) == [.internal], "identities() returned \(identities.map(\.provider))")
        Console.ok("identities(): \(identities.map { "\($0.provider) \($0.providerUID)" }.joined(separator: ", "))")
    }

    private func receiveServerEvents(for ada: AuthenticationDetails) async throws {
        Console.step(6, "The back-end pushes events (server-sent events on GET /events)")
        try check(
            await poll(timeout: .seconds(3)) { await backEnd.openEventStreams(ofUser: ada.uid) > 0 },
            "the SDK never opened the event stream")
        Console.info("the SDK holds the event stream open while a user is signed in")
        let mark = log.count
        try await backEnd.pushEvent(toUser: ada.uid, name: "notice", json: #"{"kind":"text","text":"Welcome, Ada! Your notes now sync."}"#)
        try await backEnd.pushEvent(toUser: ada.uid, name: "feature.flags", json: #"{"darkMode":true}"#)
        Console.info("pushed through the control API: a notice, and an event this SDK version does not know")
        Console.info("they arrive while the stream stays open (on Linux through StreamingURLSessionTransport)")
        try await log.waitForEvent(after: mark, "the notice") {
            $0 == .server(.notice(.text(TextNotice(text: "Welcome, Ada! Your notes now sync."))))
        }
        try await log.waitForEvent(after: mark, "the unknown event") {
            if case .server(.unknown(wireName: "feature.flags", _)) = $0 { true } else { false }
        }
        Console.ok("both arrived typed: .notice(.text(…)) and .unknown(wireName: \"feature.flags\", data:)")
        try check(
            await poll(timeout: .seconds(3)) { await backEnd.openEventStreams(ofUser: ada.uid) > 0 },
            "the SDK did not reopen the event stream")
    }

    private func expireAndRefresh() async throws {
        Console.step(7, "The access token expires, and is refreshed")
        let before = await backEnd.refreshCount()
        Console.info("tokens last 1 hour: the demo moves the app's and the back-end's clocks 1 hour ahead")
        clock.advance(by: 3601)
        let mark = log.count
        let service = self.service
        async let a = service.listNotes()
        async let b = service.me()
        async let c = service.identities()
        let (notes, me, identities) = try await (a, b, c)
        try await log.waitForEvent(after: mark, "a token refresh") { if case .tokenRefreshed = $0 { true } else { false } }
        let refreshes = await backEnd.refreshCount() - before
        try check(refreshes == 1, "\(refreshes) refreshes for 3 concurrent calls")
        try check(notes.count == 2 && !identities.isEmpty, "the calls after the refresh returned the wrong data")
        Console.ok("3 concurrent calls on the expired token → exactly 1 refresh, which all three waited for")
        Console.info("  (POST /oauth/token, refresh_token grant; the back-end rotated the refresh token, the SDK kept the new one)")
        Console.ok("then all three went through: \(notes.count) notes, \(identities.count) identity, me() = \(me.uid)")
    }

    private func goOfflineWhileRevoked(_ ada: AuthenticationDetails) async throws {
        Console.step(9, "The app goes offline; meanwhile an administrator revokes Ada's sessions")
        await service.setConnectivity(online: false)
        try check(await service.isOnline == false, "the service is still online")
        Console.info("setConnectivity(online: false)")
        try check(
            await poll(timeout: .seconds(3)) { await backEnd.openEventStreams(ofUser: ada.uid) > 0 },
            "the SDK is not listening to the event stream")
        let mark = log.count
        try await backEnd.revokeSessions(ofUser: ada.uid)
        try await log.waitForEvent(after: mark, "the session.revoked event") {
            $0 == .server(.sessionRevoked(SessionRevoked(reason: .adminAction)))
        }
        let frozen = await service.state
        try check(frozen.isAuthenticated && frozen.details?.uid == ada.uid, "offline, the state became \(frozen)")
        Console.ok("offline the state is frozen: session.revoked was delivered, the session is kept until the SDK can check")

        await service.setConnectivity(online: true)
        try await log.waitForState(after: mark, .invalid)
        Console.ok("back online, the SDK checked the session (GET /me → 401, refresh → invalid_grant): invalid")
        try check(app.currentContext == nil, "an invalid session left Ada's context open")
        try check(
            FileManager.default.fileExists(atPath: try UserContext.directory(for: ada.uid, root: directory).path),
            "Ada's files went with her session")
        Console.ok("her context closed with the session; her files stay for her next sign-in")
        do {
            _ = try await service.me()
            throw DemoFailure("me() worked on a revoked session")
        } catch SesameError.notAuthenticated {
            Console.ok("calls now fail with notAuthenticated, and nothing is sent, until a new sign-in")
        }
    }

    private func signInAndOut() async throws {
        Console.step(10, "Sign in in a browser (authorization code + PKCE), then sign out with revocation")
        await backEnd.clearRequestLog()
        var mark = log.count
        let alice = try await service.authenticate(with: SingleStepMethod.oauth2())
        try await log.waitForState(after: mark, .authenticated(alice))
        Console.info("the headless browser opened the login page, filled in the form and stopped at sesame-demo://oauth/callback")
        Console.ok("signed in as \(alice.uid): the code went back with its PKCE verifier (S256), which the server checked")
        try check(app.currentContext?.userID == alice.uid, "Alice's context is not the current one")
        try check(try localNotes().isEmpty, "Alice's new context holds someone's notes")
        Console.ok("Alice's context is new and empty: no one else's data")
        mark = log.count
        let result = await service.unauthenticate()
        try await log.waitForState(after: mark, .unauthenticated)
        try check(result == .revoked, "sign-out was \(result)")
        try check(app.currentContext == nil, "Alice's context stayed open after sign-out")
        Console.ok("unauthenticate(): POST /auth/logout, then the refresh token revoked (RFC 7009); her context closed")
        let requests = await backEnd.requestLog()
        for request in requests { Console.info(request) }
        try check(
            !requests.contains { $0.hasPrefix("authorization") && $0.contains("Bearer") },
            "the access token reached the authorization server")
        try check(
            !requests.contains { $0.hasPrefix("API") && $0.contains("client credentials") },
            "client credentials reached the API")
        try check(requests.contains { $0.hasPrefix("authorization POST /oauth/revoke") }, "no revocation reached the authorization server")
        try check(!requests.contains { $0.contains("client credentials") }, "a request carried client credentials")
        Console.ok("the access token went only to the API; the client, public, sent no credentials anywhere")
        Console.ok(
            "every token and revocation request named it with client_id alone, which the server requires and accepted")
    }

    private func keepDataOnTheDevice(for ada: AuthenticationDetails, guest: AuthenticationDetails) async throws {
        Console.step(5, "Ada's data on the device: her own context, opened by the sign-in")
        let context = try require(app.currentContext, "no user context is open")
        try check(context.userID == ada.uid, "the open context is \(context.userID)'s, not Ada's")
        Console.ok("the sign-in opened Ada's context before the state became authenticated; the guest's closed")
        let notes = try await service.listNotes()
        try await context.stores.persistence.write { db in
            for note in notes {
                try LocalNote(
                    id: note.id.uuidString, text: note.text, createdAt: note.createdAt.timeIntervalSince1970,
                    pinned: note.pinned
                ).insert(db)
            }
        }
        let copied = try localNotes().count
        try check(copied == notes.count, "the local copy holds \(copied) notes")
        Console.ok("\(notes.count) notes copied into her persistence store (SQLite, schema v\(ReferenceSDKStore.versions.persistence))")
        let guestFiles = try UserContext.directory(for: guest.uid, root: directory)
        try check(FileManager.default.fileExists(atPath: guestFiles.path), "the guest's files were erased")
        Console.info("each user has a folder of their own; the guest's stays, it is the guest's")
    }

    private func relaunchOffline(as ada: AuthenticationDetails) async throws {
        Console.step(8, "The app is killed and relaunched, offline")
        log.cancel()
        try app.contexts.close()
        app = try Self.launch(backEnd: backEnd, clock: clock, directory: directory, logger: logger)
        await log.attach(to: service)
        try check(app.currentContext == nil, "a context was open before the restore")
        await service.setConnectivity(online: false)
        let refreshes = await backEnd.refreshCount()
        let restored = await app.restoreSession()
        try check(restored == .presession(ada), "the offline restore ended \(restored)")
        try check(app.currentContext?.userID == ada.uid, "the restore did not open Ada's context")
        let notes = try localNotes()
        try check(notes.count == 2, "offline, Ada's local copy holds \(notes.count) notes")
        try check(await backEnd.refreshCount() == refreshes, "an offline restore refreshed")
        Console.ok("restoreSession() offline: presession, Ada's context open with her \(notes.count) notes, no request sent")

        let mark = log.count
        await service.setConnectivity(online: true)
        try await log.waitForEvent(after: mark, "the state authenticated") {
            if case .stateChanged(.authenticated(let details)) = $0 { details.uid == ada.uid } else { false }
        }
        let online = await backEnd.refreshCount() - refreshes
        try check(online == 1, "back online, \(online) refreshes")
        Console.ok("back online: one refresh vouched for the session, authenticated; the context stayed open")
    }

    private func upgradeTheApp() async throws {
        Console.step(12, "An app update migrates a user's data at sign-in")
        log.cancel()
        try app.contexts.close()
        // The previous release: the same SDK with its store at version 1.
        let v1 = ReferenceSDKStore.definition.persistence
        let oldStores = StoreDefinition(
            persistence: StoreSchema(
                kind: .persistence, version: 1, policy: v1.policy,
                migrations: Array(v1.migrations.prefix(1)), latest: { _ in }),
            cache: ReferenceSDKStore.definition.cache, memory: ReferenceSDKStore.definition.memory)
        app = try Self.launch(backEnd: backEnd, clock: clock, directory: directory, logger: logger, stores: oldStores)
        let bob = try await service.authenticate(with: SingleStepMethod.password(username: "bob", password: "builder"))
        let written = Date(timeIntervalSince1970: 1_700_000_000)
        try await require(app.currentContext, "the old app opened no context").stores.persistence.write { db in
            try db.execute(
                sql: #"INSERT INTO "Note" ("id", "body", "createdAt") VALUES (?, ?, ?)"#,
                arguments: ["n-1", "Fix the roof", Int(written.timeIntervalSince1970)])
        }
        await service.unauthenticate()
        Console.info("the previous release (store v1: Note.body, createdAt in whole seconds) kept a note of Bob's")

        app = try Self.launch(backEnd: backEnd, clock: clock, directory: directory, logger: logger)
        let again = try await service.authenticate(with: SingleStepMethod.password(username: "bob", password: "builder"))
        try check(again.uid == bob.uid, "Bob signed in as another user")
        let notes = try localNotes()
        try check(
            notes == [LocalNote(id: "n-1", text: "Fix the roof", createdAt: written.timeIntervalSince1970, pinned: false)],
            "after the migration Bob's notes are \(notes)")
        Console.ok(
            "this release opened Bob's file at v1 and migrated it to v\(ReferenceSDKStore.versions.persistence) on sign-in: "
                + "“\(notes[0].text)” kept (body → text, createdAt → real, pinned added)")
        await service.unauthenticate()
        try app.contexts.close()
    }

    // MARK: Local data

    typealias LocalNote = ReferenceSDKStore.Persistence.Note

    /// The notes in the current user's persistence store.
    private func localNotes() throws -> [LocalNote] {
        try require(app.currentContext, "no user context is open").stores.persistence.read { db in
            try LocalNote.order(LocalNote.Columns.id).fetchAll(db)
        }
    }
}
