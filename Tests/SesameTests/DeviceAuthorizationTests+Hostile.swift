import Foundation
@testable import Sesame
import SesameTestSupport
import Testing

/// What a hostile device authorization endpoint can answer: verification URIs the app would
/// open (scripts, local files, other apps), an interval that turns polling into a flood, and a
/// cancellation that lands while a poll is on the wire.
extension DeviceAuthorizationTests {
    static func answer(uri: String, complete: String? = nil, interval: String = "5") -> String {
        let completeField = complete.map { #","verification_uri_complete":"\#($0)""# } ?? ""
        return #"{"device_code":"dev-secret-1","user_code":"A","verification_uri":"\#(uri)""#
            + #"\#(completeField),"expires_in":60,"interval":\#(interval)}"#
    }

    static let unsafeURIs = [
        "javascript:alert(1)", "data:text/html,<h1>sign in</h1>", "file:///etc/passwd", "com.example.other://device",
        "http://idp.test/device", "https://user:pass@idp.test/device", "https://idp.test@evil.test/device", "/device",
        "https:///device", "idp.test/device",
    ]

    @Test(arguments: unsafeURIs)
    func anUnsafeVerificationURIFailsTheSignInBeforeAnyPoll(uri: String) async throws {
        for (field, json) in [
            ("verification_uri", Self.answer(uri: uri)),
            ("verification_uri_complete", Self.answer(uri: "https://idp.test/device", complete: uri)),
        ] {
            let transport = DeviceTransport(answers: ["approve"])
            await transport.setAuthorization(json)
            let service = service(transport)
            let error = await #expect(throws: SesameError.self) { try await service.authenticate(with: DeviceMethod.method) }
            #expect(
                error
                    == .decoding(
                        operation: "device.authorize",
                        reason: "$.\(field): expected an https URL (http on loopback only) without user or password"))
            #expect(await transport.polls.isEmpty)
            #expect(await service.state == .unauthenticated)
            #expect(await service.ongoingAuthentication == nil)
        }
    }

    @Test func aLoopbackHTTPVerificationURIIsAccepted() async throws {
        let transport = DeviceTransport(answers: ["approve"])
        await transport.setAuthorization(Self.answer(uri: "http://127.0.0.1:8080/device", complete: "http://localhost:8080/device?c=A"))
        let details = try await service(transport).authenticate(with: DeviceMethod.method)
        #expect(details.uid == "u3")
    }

    @Test(arguments: ["0.0001", "1", "4.9"])
    func anIntervalBelowFiveSecondsIsRaisedToFive(interval: String) async throws {
        let transport = DeviceTransport(answers: ["authorization_pending", "authorization_pending", "approve"])
        await transport.setAuthorization(Self.answer(uri: "https://idp.test/device", interval: interval))
        let service = service(transport)
        let prompt = LockedValue<DeviceAuthorizationPrompt?>(nil)
        onWait.set { _ in prompt.set(await service.ongoingAuthentication?.deviceAuthorization) }
        _ = try await service.authenticate(with: DeviceMethod.method)
        #expect(waits.value == [5, 5, 5])
        #expect(prompt.value?.interval == .seconds(5))
    }

    @Test func cancellingWhileAPollIsOnTheWireIsCancelled() async throws {
        for cancelsTheTask in [true, false] {
            let transport = DeviceTransport(answers: [])
            let onTheWire = AsyncStream<Void>.makeStream()
            let cancelled = LockedValue(false)
            // The poll ends only with the cancellation: the task's cancellation ends its sleep
            // (CancellationError); after `cancelAuthentication()` the connection drops.
            await transport.setOnPoll {
                onTheWire.continuation.yield()
                while !cancelled.value { try await Task.sleep(for: .milliseconds(5)) }
                throw URLError(.networkConnectionLost)
            }
            let service = service(transport)
            let signIn = Task { try await service.authenticate(with: DeviceMethod.method) }
            Task {
                _ = await signIn.result
                onTheWire.continuation.finish()
            }
            for await _ in onTheWire.stream { break }
            if cancelsTheTask { signIn.cancel() } else { await service.cancelAuthentication() }
            cancelled.set(true)
            await #expect(throws: DeviceAuthorizationError.cancelled) { try await signIn.value }
            #expect(await transport.polls.count == 1)
            #expect(await service.state == .unauthenticated)
            #expect(await service.ongoingAuthentication == nil)
        }
    }
}
