import Foundation
@testable import Sesame
import SesameTestSupport
import Testing

/// The device authorization grant (RFC 8628) as the runtime runs it: the user code handed
/// to the app, the polling rules (pending, slow_down, denied, expired, the code's expiry,
/// cancellation), never a real wait (the injected sleep advances the manual clock).
@Suite struct DeviceAuthorizationTests {
    let clock = ManualClock()
    let logs = LogCapture()
    /// Every wait the runtime asked for, in seconds.
    let waits = LockedValue<[Double]>([])
    /// Run at each wait, before the clock moves (a test cancels from there).
    let onWait = LockedValue<(@Sendable (Int) async throws -> Void)?>(nil)

    func service(_ transport: DeviceTransport) -> AuthenticationService<TwoServerSchema> {
        let (clock, waits, onWait) = (self.clock, self.waits, self.onWait)
        return AuthenticationService(
            configuration: .init(
                client: ClientCredentials(clientID: "app", clientSecret: "s3cr3t"), transport: transport,
                now: { clock.now }, logger: logs.logger(), receivesServerEvents: false,
                sleep: { duration in
                    let seconds = duration.timeInterval
                    let count = waits.value.count
                    waits.set(waits.value + [seconds])
                    try await onWait.value?(count)
                    try Task.checkCancellation()
                    clock.advance(by: seconds)
                }))
    }

    @Test func theAppShowsTheUserCodeAndTheApprovalSignsIn() async throws {
        let transport = DeviceTransport(answers: ["authorization_pending", "authorization_pending", "approve"])
        let service = service(transport)
        // The app's screen: it shows what the event brings, as a TV app would.
        let events = await service.events()
        let shown = Task { () -> DeviceAuthorizationPrompt? in
            for await event in events {
                if case .deviceAuthorization(let prompt) = event { return prompt }
            }
            return nil
        }
        // While the sign-in waits, the ongoing authentication holds the same prompt.
        let ongoing = LockedValue<OngoingAuthentication?>(nil)
        onWait.set { _ in ongoing.set(await service.ongoingAuthentication) }
        let details = try await service.authenticate(with: DeviceMethod.method)
        #expect(details.uid == "u3")
        #expect(await service.state == .authenticated(details))
        let prompt = try #require(await shown.value)
        #expect(prompt.userCode == "WDJB-MJHT")
        #expect(prompt.verificationURI == URL(string: "https://idp.test/device"))
        #expect(prompt.verificationURIComplete == URL(string: "https://idp.test/device?user_code=WDJB-MJHT"))
        #expect(prompt.expiresAt == Date(timeIntervalSince1970: 1_700_000_000 + 600))
        #expect(prompt.interval == .seconds(5))
        #expect(ongoing.value?.deviceAuthorization == prompt)
        #expect(await service.ongoingAuthentication == nil)
        // One device authorization request with client authentication and the scope, then
        // a token request every 5 s with the device code grant.
        let sent = await transport.sent
        let authorize = try #require(sent.first)
        #expect(authorize.url == "https://idp.test/oauth/device_authorization")
        #expect(authorize.authorization?.hasPrefix("Basic ") == true)
        #expect(formFields(authorize.body) == ["scope": "profile", "client_id": "app"])
        #expect(waits.value == [5, 5, 5])
        let polls = await transport.polls
        #expect(polls.count == 3)
        #expect(polls.allSatisfy { formFields($0.body)["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code" })
        // Neither the device code nor the user code is logged.
        #expect(!logs.text.contains("dev-secret-1"))
        #expect(!logs.text.contains("WDJB-MJHT"))
        #expect(!"\(prompt)".contains("WDJB-MJHT"))
    }

    @Test func slowDownAddsFiveSecondsToTheInterval() async throws {
        let transport = DeviceTransport(answers: ["authorization_pending", "slow_down", "authorization_pending", "slow_down", "approve"])
        let service = service(transport)
        _ = try await service.authenticate(with: DeviceMethod.method)
        #expect(waits.value == [5, 5, 10, 10, 15])
    }

    @Test func theServersIntervalIsUsedAndFiveSecondsIsTheDefault() async throws {
        let transport = DeviceTransport(answers: ["approve"])
        await transport.setAuthorization(
            #"{"device_code":"dev-secret-1","user_code":"A","verification_uri":"https://idp.test/device","expires_in":60}"#)
        _ = try await service(transport).authenticate(with: DeviceMethod.method)
        #expect(waits.value == [5])
        let slow = DeviceTransport(answers: ["approve"])
        await slow.setAuthorization(
            #"{"device_code":"dev-secret-1","user_code":"A","verification_uri":"https://idp.test/device","expires_in":60,"interval":12}"#)
        waits.set([])
        _ = try await service(slow).authenticate(with: DeviceMethod.method)
        #expect(waits.value == [12])
    }

    @Test func aDenialIsTypedAndKeepsTheSession() async throws {
        let transport = DeviceTransport(answers: ["authorization_pending", "access_denied"])
        let service = service(transport)
        let details = try await service.authenticate(with: TwoServerMethod.password)
        let before = await service.session?.credential
        await #expect(throws: DeviceAuthorizationError.accessDenied) { try await service.authenticate(with: DeviceMethod.method) }
        #expect(await service.state == .authenticated(details))
        #expect(await service.session?.credential == before)
        #expect(await service.ongoingAuthentication == nil)
        #expect(await transport.polls.count == 3)  // the password grant, then two polls
    }

    @Test func expiredTokenIsTypedAndChangesNothing() async throws {
        let transport = DeviceTransport(answers: ["authorization_pending", "expired_token"])
        let service = service(transport)
        await #expect(throws: DeviceAuthorizationError.expired) { try await service.authenticate(with: DeviceMethod.method) }
        #expect(await service.state == .unauthenticated)
        #expect(await service.ongoingAuthentication == nil)
    }

    @Test func pollingStopsAtTheCodesExpiry() async throws {
        // The server would answer pending for ever; the code lives 12 s at 5 s a poll.
        let transport = DeviceTransport(answers: [])
        await transport.setAuthorization(
            #"{"device_code":"dev-secret-1","user_code":"A","verification_uri":"https://idp.test/device","expires_in":12,"interval":5}"#)
        let service = service(transport)
        await #expect(throws: DeviceAuthorizationError.expired) { try await service.authenticate(with: DeviceMethod.method) }
        #expect(await transport.polls.count == 2)
        #expect(waits.value == [5, 5, 5])
        #expect(await service.state == .unauthenticated)
    }

    @Test func cancelAuthenticationStopsThePolling() async throws {
        let transport = DeviceTransport(answers: [])
        let service = service(transport)
        let details = try await service.authenticate(with: TwoServerMethod.password)
        onWait.set { count in if count == 2 { await service.cancelAuthentication() } }
        await #expect(throws: DeviceAuthorizationError.cancelled) { try await service.authenticate(with: DeviceMethod.method) }
        // Two polls were sent before the cancellation, none after it.
        #expect(await transport.polls.count == 3)
        #expect(await service.state == .authenticated(details))
        #expect(await service.ongoingAuthentication == nil)
    }

    @Test func cancellingTheTaskStopsThePolling() async throws {
        let transport = DeviceTransport(answers: [])
        let service = service(transport)
        let started = AsyncStream<Void>.makeStream()
        onWait.set { count in
            if count == 1 {
                started.continuation.yield()
                try await Task.sleep(for: .seconds(3600))  // cancelled at once
            }
        }
        let signIn = Task { try await service.authenticate(with: DeviceMethod.method) }
        // A sign-in that ends before its second wait ends the stream too: the test fails, never hangs.
        Task {
            _ = await signIn.result
            started.continuation.finish()
        }
        for await _ in started.stream { break }
        signIn.cancel()
        await #expect(throws: DeviceAuthorizationError.cancelled) { try await signIn.value }
        #expect(await transport.polls.count == 1)
        #expect(await service.state == .unauthenticated)
        #expect(await service.ongoingAuthentication == nil)
    }

    @Test func aMalformedDeviceAnswerIsADecodingErrorAndNothingIsPolled() async throws {
        let transport = DeviceTransport(answers: ["approve"])
        await transport.setAuthorization(#"{"device_code":"dev-secret-1","verification_uri":"https://idp.test/device","expires_in":60}"#)
        let service = service(transport)
        let error = await #expect(throws: SesameError.self) { try await service.authenticate(with: DeviceMethod.method) }
        #expect(error == .decoding(operation: "device.authorize", reason: "$.user_code: required property is missing"))
        #expect(await transport.polls.isEmpty)
        #expect(await service.state == .unauthenticated)
        #expect(!"\(String(describing: error))".contains("dev-secret-1"))
    }
}
