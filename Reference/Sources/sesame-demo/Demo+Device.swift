import Foundation
import ReferenceSDK

extension Demo {
    /// Step 11: the device authorization grant (RFC 8628), approved on the back-end as a phone
    /// would, while the runtime polls.
    func signInATV() async throws {
        Console.step(11, "Sign in a TV with a code shown on its screen (device authorization grant, RFC 8628)")
        await backEnd.clearRequestLog()
        let mark = log.count
        let service = self.service
        let signIn = Task { try await service.authenticate(with: SingleStepMethod.device()) }
        var prompt: DeviceAuthorizationPrompt?
        for _ in 0..<200 where prompt == nil {
            prompt = await service.ongoingAuthentication?.deviceAuthorization
            if prompt == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        guard let prompt else {
            signIn.cancel()
            throw DemoFailure("the device sign-in showed no user code")
        }
        Console.info("the TV shows: “Go to \(prompt.verificationURI.absoluteString) and enter \(prompt.userCode)”")
        Console.info("meanwhile the runtime polls POST /oauth/token every \(prompt.interval): authorization_pending")
        try await Task.sleep(for: .milliseconds(200))
        try await backEnd.approveDevice(userCode: prompt.userCode, as: "alice")
        Console.info("on her phone, Alice opens the approval page, signs in and approves the code")
        let alice = try await signIn.value
        try await log.waitForState(after: mark, .authenticated(alice))
        let polls = await backEnd.requestLog().filter { $0.contains("POST /oauth/token") }.count
        try check(polls >= 2, "the runtime polled \(polls) times")
        Console.ok("signed in as \(alice.uid) after \(polls) polls; the device code never left the runtime")
        await service.unauthenticate()
    }
}
