import Foundation
import ReferenceSDK
import SesameTestSupport
import Testing

/// The device authorization grant (RFC 8628) over real HTTP against the reference server:
/// the app shows the user code, the user answers on "another device" (the control endpoint
/// or the approval page), and the runtime polls the token endpoint. The runtime's waits
/// move both clocks instead of sleeping, so a test takes no real polling interval.
@Suite("Device sign-in, end to end", .secretScan)
struct DeviceEndToEndTests {
    /// A device sign-in's world: the service, the waits it asked for (seconds), and what the
    /// "user" does at each wait (`index`, the user code shown, the asked duration), which
    /// returns how many seconds really pass (the asked ones unless it says otherwise).
    final class Device: Sendable {
        let e2e: EndToEnd
        let waits = LockedValue<[Double]>([])
        let service: Service

        init(_ e2e: EndToEnd, user: @escaping @Sendable (Int, String?, Double) async throws -> Double? = { _, _, _ in nil }) {
            self.e2e = e2e
            let waits = self.waits
            let holder = LockedValue<Service?>(nil)
            service = e2e.makeService(sleep: { duration in
                let asked = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
                let index = waits.value.count
                waits.set(waits.value + [asked])
                let code = await holder.value?.ongoingAuthentication?.deviceAuthorization?.userCode
                let passed = try await user(index, code, asked) ?? asked
                try Task.checkCancellation()
                await e2e.advanceTime(by: passed)
            })
            holder.set(service)
        }

        /// The token requests the server received.
        func polls() async -> Int {
            await e2e.backEnd.requestLog().filter { $0.path == "/oauth/token" }.count
        }
    }

    static func approve(_ e2e: EndToEnd, _ code: String?) async throws {
        let result = try await RawHTTP.decideDevice(e2e.backEnd.baseURL, userCode: code ?? "", approve: true, username: "alice")
        #expect(result.status == 204, "\(result.body)")
    }

    @Test("the app shows the user code, the user approves it, and the device is signed in")
    func approval() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let device = Device(e2e) { index, code, _ in
                if index == 2 { try await Self.approve(e2e, code) }
                return nil
            }
            let service = device.service
            // The app's screen: what the event brings.
            let events = await service.events()
            let shown = Task { () -> DeviceAuthorizationPrompt? in
                for await event in events {
                    if case .deviceAuthorization(let prompt) = event { return prompt }
                }
                return nil
            }
            let details = try await service.authenticate(with: SingleStepMethod.device())
            #expect(await service.state == .authenticated(details))
            #expect(try await service.me().uid == details.uid)
            let prompt = try #require(await shown.value)
            #expect(prompt.userCode.count == 9 && prompt.userCode.contains("-"))
            let authorization = e2e.backEnd.authorizationBaseURL.absoluteString.trimmingCharacters(in: ["/"])
            #expect(prompt.verificationURI.absoluteString == "\(authorization)/device")
            #expect(prompt.verificationURIComplete?.absoluteString.hasSuffix("/device?user_code=\(prompt.userCode)") == true)
            #expect(prompt.expiresAt == e2e.clock.now.addingTimeInterval(600 - 15))
            #expect(device.waits.value == [5, 5, 5])
            // Polled twice while pending, then the approved poll; all on the authorization server.
            #expect(await device.polls() == 3)
            let log = await e2e.backEnd.requestLog()
            #expect(
                log.filter { $0.listener == .authorization }.map { "\($0.method) \($0.path)" } == [
                    "POST /oauth/device_authorization", "POST /oauth/token", "POST /oauth/token", "POST /oauth/token",
                ])
            #expect(log.filter { $0.listener == .authorization }.allSatisfy { $0.clientAuthentication && !$0.bearer })
            #expect(await e2e.backEnd.counters().tokenGrants["device_code"] == 1)
            #expect(await service.ongoingAuthentication == nil)
        }
    }

    @Test("the user approves on the approval page opened from verification_uri_complete")
    func approvalPage() async throws {
        try await withEndToEnd { e2e in
            let device = Device(e2e) { index, code, _ in
                guard index == 1, let code else { return nil }
                let page = try await RawHTTP.get(
                    e2e.backEnd.authorizationBaseURL.appending(path: "device").appending(queryItems: [.init(name: "user_code", value: code)]
                    ),
                    bearer: "none")
                #expect(page.body.contains("value=\"\(code)\""))
                let answer = try await RawHTTP.postForm(
                    e2e.backEnd.authorizationBaseURL.appending(path: "device"),
                    [("user_code", code), ("username", "alice"), ("password", "wonderland"), ("decision", "allow")])
                #expect(answer.body.contains("The device is signed in."))
                return nil
            }
            let details = try await device.service.authenticate(with: SingleStepMethod.device())
            #expect(details.provider == .password)
            #expect(await device.polls() == 2)
        }
    }

    @Test("a denial is a typed error and the signed-in user stays signed in")
    func denial() async throws {
        try await withEndToEnd { e2e in
            let device = Device(e2e) { index, code, _ in
                if index == 1 {
                    let result = try await RawHTTP.decideDevice(e2e.backEnd.baseURL, userCode: code ?? "", approve: false)
                    #expect(result.status == 204)
                }
                return nil
            }
            let service = device.service
            let guest = try await e2e.signInAsGuest(service)
            await #expect(throws: DeviceAuthorizationError.accessDenied) { try await service.authenticate(with: SingleStepMethod.device()) }
            #expect(await service.state == .authenticated(guest))
            #expect(try await service.me().uid == guest.uid)
            #expect(await service.ongoingAuthentication == nil)
            #expect(await device.polls() == 2)
        }
    }

    @Test("polling faster than the interval gets slow_down, and the runtime adds 5 s")
    func slowDown() async throws {
        try await withEndToEnd { e2e in
            // The first two waits pass only half their time: the second poll comes 2.5 s
            // after the first, too soon.
            let device = Device(e2e) { index, code, asked in
                if index == 3 { try await Self.approve(e2e, code) }
                return index < 2 ? asked / 2 : nil
            }
            _ = try await device.service.authenticate(with: SingleStepMethod.device())
            #expect(device.waits.value == [5, 5, 10, 10])
            #expect(await device.polls() == 4)
        }
    }

    @Test("the server's expired_token and the code's own expiry both end the sign-in as expired")
    func expiry() async throws {
        try await withEndToEnd { e2e in
            // The server's clock alone passes the expiry: it answers expired_token.
            let server = Device(e2e) { index, _, _ in
                if index == 1 { await e2e.backEnd.advanceClock(by: 601) }
                return nil
            }
            await #expect(throws: DeviceAuthorizationError.expired) {
                try await server.service.authenticate(with: SingleStepMethod.device())
            }
            #expect(await server.polls() == 2)
            #expect(await server.service.state == .unauthenticated)
        }
        try await withEndToEnd { e2e in
            // Both clocks pass it while the runtime waits: no request is sent after it.
            let client = Device(e2e) { index, _, asked in index == 1 ? 600 : asked }
            await #expect(throws: DeviceAuthorizationError.expired) {
                try await client.service.authenticate(with: SingleStepMethod.device())
            }
            #expect(await client.polls() == 1)
            #expect(await client.service.state == .unauthenticated)
        }
    }

    @Test("cancelAuthentication and task cancellation stop the polling and change nothing")
    func cancellation() async throws {
        try await withEndToEnd { e2e in
            let holder = LockedValue<Service?>(nil)
            let device = Device(e2e) { index, _, _ in
                if index == 2 { await holder.value?.cancelAuthentication() }
                return nil
            }
            holder.set(device.service)
            let guest = try await e2e.signInAsGuest(device.service)
            await #expect(throws: DeviceAuthorizationError.cancelled) {
                try await device.service.authenticate(with: SingleStepMethod.device())
            }
            #expect(await device.polls() == 2)
            #expect(await device.service.state == .authenticated(guest))
            #expect(await device.service.ongoingAuthentication == nil)
        }
        try await withEndToEnd { e2e in
            let started = AsyncStream<Void>.makeStream()
            let device = Device(e2e) { index, _, _ in
                if index == 1 {
                    started.continuation.yield()
                    try await Task.sleep(for: .seconds(3600))  // until the task is cancelled
                }
                return nil
            }
            let service = device.service
            let signIn = Task { try await service.authenticate(with: SingleStepMethod.device()) }
            // A sign-in that ends before its second wait ends the stream too: the test fails, never hangs.
            Task {
                _ = await signIn.result
                started.continuation.finish()
            }
            for await _ in started.stream { break }
            signIn.cancel()
            await #expect(throws: DeviceAuthorizationError.cancelled) { try await signIn.value }
            #expect(await device.polls() == 1)
            #expect(await service.state == .unauthenticated)
        }
    }
}
