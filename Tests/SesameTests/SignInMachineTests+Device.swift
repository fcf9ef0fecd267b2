import Foundation
import Testing
@testable import Sesame

/// The sign-in machine's one input for device steps: the user code arrives while the step
/// runs, is visible in `ongoing` until the step ends, and only for the process running it.
extension SignInMachineTests {
    static let prompt = DeviceAuthorizationPrompt(
        userCode: "WDJB-MJHT", verificationURI: URL(string: "https://idp.test/device")!, expiresAt: Date(timeIntervalSince1970: 600),
        interval: .seconds(5))

    @Test(arguments: Start.allCases)
    func aUserCodeIsTakenOnlyWhileItsProcessRunsAStep(_ start: Start) {
        var machine = start.machine
        let before = machine.phase
        let running = start == .runningFirstStep || start == .runningInputStep
        #expect(machine.isRunning(id: 1) == running)
        #expect(machine.deviceAuthorized(Self.prompt, id: 2) == false)
        #expect(machine.deviceAuthorized(Self.prompt, id: 1) == running)
        // The phase never changes; only a running process shows the prompt.
        #expect(machine.phase == before)
        #expect(machine.ongoing?.deviceAuthorization == (running ? Self.prompt : nil))
    }

    @Test func thePromptEndsWithItsStep() {
        var answered = Start.runningFirstStep.machine
        _ = answered.deviceAuthorized(Self.prompt, id: 1)
        _ = answered.stepAnswered(Self.challenge, id: 1)
        #expect(answered.ongoing?.deviceAuthorization == nil)
        #expect(answered.ongoing?.nextStep == "continue")

        var refused = Start.runningInputStep.machine
        _ = refused.deviceAuthorized(Self.prompt, id: 1)
        refused.stepFailed(id: 1, malformedAnswer: false)
        #expect(refused.phase == .atStep(process: 1, step: "continue"))
        #expect(refused.ongoing?.deviceAuthorization == nil)

        var cancelled = Start.runningFirstStep.machine
        _ = cancelled.deviceAuthorized(Self.prompt, id: 1)
        #expect(cancelled.cancel() == "internal")
        #expect(cancelled.ongoing == nil)
        #expect(!cancelled.isRunning(id: 1))
    }
}
