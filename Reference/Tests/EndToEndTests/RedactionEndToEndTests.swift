import Foundation
import Logging
import ReferenceSDK
import SesameTestSupport
import Testing

/// No token the back-end issued, and no client secret, password or one-time code, shows in
/// anything the SDK lets an app print. Every end-to-end test is scanned for that by its
/// suite's `.secretScan` trait (see ``SecretScan``); this suite runs the session that
/// exercises the most, and proves that the scan finds what it looks for.
@Suite("Redaction, end to end", .secretScan)
struct RedactionEndToEndTests {
    @Test("a full session's states, errors, events, results and logs never show a token or a secret")
    func fullSessionShowsNoSecret() async throws {
        try await withEndToEnd { e2e in
            let traffic = TrafficRecorder()
            let logs = LogCapture()
            let store = InMemorySessionStore<AuthenticationDetails>()
            let service = e2e.makeService(store: store, receivesServerEvents: true, traffic: traffic, logs: logs)
            let recorder = await EventRecorder.attach(to: service)
            // Results, errors, states and events reach the scan through the service; what
            // the test makes itself, or reads from the store, it shows.
            _ = try await service.serverStatus()
            let method = SingleStepMethod.password(username: "alice", password: "wonderland")
            e2e.show(method)
            let customToken = "custom-secret-token"
            e2e.scan.lookFor(Secret(kind: "customToken", value: customToken))
            e2e.show(SingleStepMethod.custom(token: customToken, provider: "acme"))

            // Sign in as a guest, use the back-end, fail a password sign-in.
            let guest = try await e2e.signInAsGuest(service)
            _ = try await service.me()
            _ = try await service.createNote(NewNote(text: "a note"))
            _ = await service.state
            e2e.show(try store.load())
            e2e.show(try store.load()?.credential)
            _ = await caught { try await service.authenticate(with: SingleStepMethod.password(username: "alice", password: "nope")) }

            // Multi-step: a wrong code, then the right one.
            let identifier = "redact@example.com"
            _ = try await service.initializeAuthentication(with: MultiStepMethod.internal(identifier: identifier))
            _ = await service.ongoingAuthentication
            let code = try #require(await e2e.backEnd.latestCode(for: identifier))
            e2e.show(AuthenticationInput.internalContinue(code: code))
            _ = await caught {
                try await service.continueAuthentication(
                    with: AuthenticationInput.internalContinue(code: code == "000000" ? "111111" : "000000"))
            }
            let progress = try await service.continueAuthentication(with: AuthenticationInput.internalContinue(code: code))
            guard case .authenticated(let details) = progress else { throw Unexpected("internal sign-in failed") }
            #expect(details.uid != guest.uid)

            // Server events.
            #expect(await e2e.waitForEventStream(ofUser: details.uid))
            try await e2e.backEnd.pushEvent(
                toUser: details.uid, name: "notice", json: #"{"kind":"link","title":"Docs","url":"https://example.com/docs"}"#)
            try await e2e.backEnd.pushEvent(toUser: details.uid, name: "x-unknown", json: #"{"a":1}"#)
            #expect(await recorder.wait { $0.serverEvents.count == 2 })

            // Expiry and refresh, failures of every kind.
            await e2e.advanceTime(by: 3601)
            _ = try await service.listNotes()
            e2e.show(try store.load())
            await e2e.backEnd.injectFailure(method: "GET", path: "/me", status: 200, rawBody: #"{"uid":"#, contentType: "application/json")
            _ = await caught { try await service.me() }
            await e2e.backEnd.injectFailure(
                method: "GET", path: "/notes", status: 401, rawBody: #"{"error":"unauthorized"}"#, contentType: "application/json")
            _ = await caught { try await service.listNotes() }
            await e2e.advanceTime(by: 301)
            _ = await caught { try await service.destroyAccount() }
            await e2e.backEnd.advanceClock(by: 3601)
            _ = try await service.identities()
            await service.setConnectivity(online: false)
            await service.setConnectivity(online: true)

            // Revocation: session.revoked, invalid, then nothing goes out.
            try await e2e.backEnd.revokeTokens(ofUser: details.uid)
            #expect(await recorder.wait { $0.states.last == .invalid })
            _ = await caught { try await service.me() }
            _ = await caught { try await service.authenticationDetailsThrows() }

            // Password sign-in, a relaunch that restores it, a sign-out that fails, one that works.
            _ = try await service.authenticate(with: method)
            let relaunched = e2e.makeService(store: store, traffic: traffic, logs: logs)
            _ = await relaunched.restoreSession()
            await e2e.backEnd.injectFailure(
                method: "POST", path: "/auth/logout", status: 503, rawBody: "<html>down</html>", contentType: "text/html")
            _ = await service.unauthenticate()
            _ = await relaunched.unauthenticate()
            _ = await relaunched.state

            // Enough was issued and seen for the scan to mean something: guest, internal,
            // two refreshes, password, the relaunch's refresh (two tokens each), the code,
            // the client secret and the password.
            let issued = await e2e.backEnd.issuedSecrets()
            let tokens = issued.filter { $0.kind == "accessToken" || $0.kind == "refreshToken" }
            #expect(tokens.count >= 12, "\(traffic.requests.map { "\($0.method) \($0.path) \($0.status ?? 0)" })")
            #expect(Set(issued.map(\.kind)) == ["accessToken", "refreshToken", "oneTimeCode", "clientSecret", "password"])
            #expect(recorder.events.count >= 8)
            #expect(logs.lines.count >= 20)
        }
    }

    @Test(
        "the scan finds secrets planted in a log line's metadata and message, an error's mirror, a value's debug description and a service, and reports them redacted"
    )
    func scanFindsPlantedSecrets() async throws {
        let planted = ScanRecord()
        var issued: [Secret] = []
        try await ScanRecord.$current.withValue(planted) {
            try await withEndToEnd { e2e in
                let logs = LogCapture()
                let service = e2e.makeService(logs: logs)
                try await e2e.signInInternal(service, identifier: "plant@example.com")
                issued = await e2e.backEnd.issuedSecrets()
                let access = try #require(issued.first { $0.kind == "accessToken" })
                let refresh = try #require(issued.first { $0.kind == "refreshToken" })
                let code = try #require(issued.first { $0.kind == "oneTimeCode" })
                // Through the service's own log capture, as the runtime would log.
                let logger = logs.logger(label: "e2e.plant")
                logger.debug("a request went out", metadata: ["authorization": "Bearer \(access.value)"])
                logger.info("the code was \(code.value).")
                // Through the support's error path, visible only in a dump or a mirror.
                _ = await outcome { () throws -> Void in throw Planted(secret: refresh.value) }
                // Through a value the test shows, visible only in its debug description.
                e2e.show(Planted(secret: access.value))
                // Through the walk of a service, which holds it in its configuration.
                _ = e2e.makeService(restorationDelegate: PlantedDelegate(secret: refresh.value))
            }
        }

        let report = planted.scan()
        func found(_ kind: String, in origin: String) -> Bool {
            report.findings.contains { $0.secret.kind == kind && $0.origin.hasPrefix(origin) }
        }
        #expect(found("accessToken", in: "log line"))
        #expect(found("oneTimeCode", in: "log line"))
        #expect(found("refreshToken", in: "what outcome(_:) caught"))
        #expect(found("accessToken", in: "a value the test showed"))
        #expect(found("refreshToken", in: "the service"))
        // Nothing the SDK itself produced shows up: only the planted origins.
        let plantedOrigins = ["what outcome(_:) caught", "a value the test showed", "the service"]
        #expect(report.findings.allSatisfy { $0.origin.hasPrefix("log line") || plantedOrigins.contains($0.origin) })
        // The report names no secret, and reaching the test's issues it fails the test.
        let printed = report.findings.map(\.description).joined(separator: "\n")
        let named = issued.filter { $0.occurs(in: printed) }.count
        #expect(named == 0)
        withKnownIssue("the planted secrets are reported as issues") {
            report.recordIssues(at: #_sourceLocation)
        }
    }

    @Test("a one-time code counts as found only as a whole number, not inside a longer one")
    func codesMatchWholeNumbers() {
        let code = Secret(kind: "oneTimeCode", value: "345678")
        #expect(code.occurs(in: "code=345678"))
        #expect(code.occurs(in: "the code was 345678."))
        #expect(!code.occurs(in: "at 1712345678.25"))
        #expect(!code.occurs(in: "id 3456789"))
    }

    @Test("an end-to-end test without the .secretScan trait fails before starting a server")
    func unscannedTestIsRefused() async {
        let result = await ScanRecord.$current.withValue(nil) {
            await outcome { try await withEndToEnd { _ in } }
        }
        #expect(throws: Unexpected.self) { try result.get() }
    }
}

/// A value whose description hides its secret but whose debug description, dump and mirror
/// show it: what a careless type of the SDK would look like.
private struct Planted: Error, CustomStringConvertible, CustomDebugStringConvertible {
    let secret: String

    var description: String { "planted" }
    var debugDescription: String { "planted(\(secret))" }
}

/// A restoration delegate that holds a secret, as an app's might.
private struct PlantedDelegate: SessionRestorationDelegate {
    typealias Details = AuthenticationDetails
    let secret: String
}

/// The error `body` throws, or nil; the service shows it to the secret scan.
func caught(_ body: () async throws -> Any) async -> (any Error)? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}
