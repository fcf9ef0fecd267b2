import Foundation
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// The sign-in machine's inputs for browser steps: the browser is open from the step's start
/// until it returns, a cancellation closes it, and a code may be exchanged only while the
/// process still runs the step that opened the browser.
extension SignInMachineTests {
    static let browserMethod = AuthenticationMethodDescription(
        name: "oauth2",
        steps: [
            AuthenticationStepDescription(
                name: "authenticate",
                request: RequestDescription(name: "token", method: .post, path: "/oauth/token", authenticated: false),
                body: [],
                browser: BrowserAuthorization(
                    request: RequestDescription(name: "oauth2.authorize", method: .get, path: "/oauth/authorize", authenticated: false),
                    redirectURI: "com.example.app://oauth/callback", parameters: []))
        ])

    /// `machine.browserReturned(id:)`, for `#expect` (which cannot call a mutating member).
    static func returned(_ machine: inout SignInMachine, id: UInt64) -> Bool {
        machine.browserReturned(id: id)
    }

    /// A machine running the browser step of process 1, its browser open.
    static var browserOpen: SignInMachine {
        var machine = SignInMachine()
        _ = machine.start(browserMethod, arguments: [:], epoch: 0)
        _ = machine.nextStep(of: 1)
        return machine
    }

    @Test(arguments: Start.allCases)
    func withoutABrowserStepNoBrowserIsOpenAndNoCodeIsTaken(_ start: Start) {
        var machine = start.machine
        let before = machine.phase
        #expect(!machine.isBrowserOpen)
        #expect(!Self.returned(&machine, id: 1))
        #expect(machine.phase == before)
    }

    @Test func theBrowserIsOpenFromTheStepUntilItReturnsOnce() {
        var machine = Self.browserOpen
        #expect(machine.phase == .running(process: 1, step: "authenticate"))
        #expect(machine.isBrowserOpen)
        #expect(!Self.returned(&machine, id: 2))
        #expect(Self.returned(&machine, id: 1))
        // The code is being exchanged: nothing to close any more, and no second code.
        #expect(!machine.isBrowserOpen)
        #expect(!Self.returned(&machine, id: 1))
        #expect(machine.phase == .running(process: 1, step: "authenticate"))
    }

    @Test func afterACancelTheCodeIsNeverExchanged() {
        var cancelled = Self.browserOpen
        #expect(cancelled.cancel() == "oauth2")
        #expect(!cancelled.isBrowserOpen)
        #expect(!Self.returned(&cancelled, id: 1))
        #expect(cancelled.phase == .idle)

        // Another sign-in replaced the process: its browser's code is not taken either.
        var replaced = Self.browserOpen
        _ = replaced.start(Self.browserMethod, arguments: [:], epoch: 0)
        #expect(!replaced.isBrowserOpen)
        #expect(!Self.returned(&replaced, id: 1))
        _ = replaced.nextStep(of: 2)
        #expect(replaced.isBrowserOpen)
        #expect(Self.returned(&replaced, id: 2))

        // The step failed (the browser threw): nothing is open.
        var failed = Self.browserOpen
        failed.stepFailed(id: 1, malformedAnswer: false)
        #expect(failed.phase == .idle)
        #expect(!failed.isBrowserOpen)
        #expect(!Self.returned(&failed, id: 1))
    }

    @Test func aCancelAfterTheBrowserReturnedDiscardsTheTokenResponse() {
        var machine = Self.browserOpen
        #expect(Self.returned(&machine, id: 1))
        #expect(!machine.isBrowserOpen)
        #expect(machine.cancel() == "oauth2")
        guard case .superseded = machine.stepAnswered(Self.tokens, id: 1) else {
            Issue.record("the token response of a cancelled process must be discarded")
            return
        }
        #expect(machine.phase == .idle)
    }
}
