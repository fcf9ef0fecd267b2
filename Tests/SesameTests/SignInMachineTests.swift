import Foundation
import Testing
@_spi(Generated) @testable import Sesame
@_spi(Generated) import SesameDescription

/// Every state × input of the sign-in machine, written out as a table, for a two-step
/// method whose second step needs a `code` from the app.
@Suite struct SignInMachineTests {
    static let method = AuthenticationMethodDescription(
        name: "internal",
        steps: [
            AuthenticationStepDescription(
                name: "initialize",
                request: RequestDescription(name: "initialize", method: .post, path: "/challenge", authenticated: false),
                body: []),
            AuthenticationStepDescription(
                name: "continue",
                request: RequestDescription(name: "continue", method: .post, path: "/verify", authenticated: false),
                body: [], needs: ["code"]),
        ])
    static let challenge = JSONValue.object(["challengeId": .string("c1")])
    static let tokens = JSONValue.object(["access_token": .string("t")])

    /// The states an input can meet, each reached through inputs from a new machine: every
    /// phase of ``SignInMachine/Phase``, and a stop before a step both before and after the
    /// app supplied what it needs.
    enum Start: CaseIterable {
        case idle, started, runningFirstStep, awaitingInput, resumed, runningInputStep, completing

        var machine: SignInMachine {
            var machine = SignInMachine()
            guard self != .idle else { return machine }
            _ = machine.start(SignInMachineTests.method, arguments: [:], epoch: 0)
            guard self != .started else { return machine }
            _ = machine.nextStep(of: 1)
            guard self != .runningFirstStep else { return machine }
            _ = machine.stepAnswered(SignInMachineTests.challenge, id: 1)
            guard self != .awaitingInput else { return machine }
            _ = machine.continueWith(methodName: "internal", stepName: "continue", values: ["code": .string("123456")])
            guard self != .resumed else { return machine }
            _ = machine.nextStep(of: 1)
            guard self != .runningInputStep else { return machine }
            _ = machine.stepAnswered(SignInMachineTests.tokens, id: 1)
            return machine
        }
    }

    enum Input: CaseIterable {
        case start, nextStep, nextStepOfAnother, answered, answeredToAnother, refused, malformed, continueWithCode,
            continueAnotherStep, continueWithoutCode, completed, completedInAnotherEpoch, completionFailed, abandon, cancel
    }

    /// What an input returned, reduced to what the table compares.
    enum Outcome: Hashable {
        case started(UInt64), run(step: String), superseded, complete, needsInput(String), runNext
        case resume(UInt64), refuse(String), signIn, cancelled(String?), nothing
    }

    typealias Phase = SignInMachine.Phase

    static func apply(_ input: Input, to machine: inout SignInMachine) -> Outcome {
        func step(_ action: SignInMachine.StepAction) -> Outcome {
            if case .run(let step, _) = action { return .run(step: step.name) }
            return .superseded
        }
        func answer(_ action: SignInMachine.AnswerAction) -> Outcome {
            switch action {
            case .complete: return .complete
            case .needsInput(let ongoing): return .needsInput(ongoing.description)
            case .runNext: return .runNext
            case .superseded: return .superseded
            }
        }
        func resume(_ action: SignInMachine.ContinueAction) -> Outcome {
            switch action {
            case .resume(let id): return .resume(id)
            case .refuse(let reason): return .refuse(reason)
            }
        }
        func complete(_ action: SignInMachine.CompletionAction) -> Outcome { action == .signIn ? .signIn : .superseded }
        switch input {
        case .start: return .started(machine.start(method, arguments: [:], epoch: 0))
        case .nextStep: return step(machine.nextStep(of: 1))
        case .nextStepOfAnother: return step(machine.nextStep(of: 7))
        case .answered: return answer(machine.stepAnswered(challenge, id: 1))
        case .answeredToAnother: return answer(machine.stepAnswered(challenge, id: 7))
        case .refused:
            machine.stepFailed(id: 1, malformedAnswer: false)
            return .nothing
        case .malformed:
            machine.stepFailed(id: 1, malformedAnswer: true)
            return .nothing
        case .continueWithCode:
            return resume(machine.continueWith(methodName: "internal", stepName: "continue", values: ["code": .string("1")]))
        case .continueAnotherStep:
            return resume(machine.continueWith(methodName: "internal", stepName: "initialize", values: ["code": .string("1")]))
        case .continueWithoutCode: return resume(machine.continueWith(methodName: "internal", stepName: "continue", values: [:]))
        case .completed: return complete(machine.completed(id: 1, epoch: 0))
        case .completedInAnotherEpoch: return complete(machine.completed(id: 1, epoch: 1))
        case .completionFailed:
            machine.completionFailed(id: 1)
            return .nothing
        case .abandon:
            machine.abandon(id: 1)
            return .nothing
        case .cancel: return .cancelled(machine.cancel())
        }
    }

    struct Row: Sendable, CustomTestStringConvertible {
        var start: Start
        var input: Input
        var outcome: Outcome
        var phase: Phase
        var testDescription: String { "\(start) + \(input)" }
    }

    static func row(_ start: Start, _ input: Input, _ outcome: Outcome, _ phase: Phase) -> Row {
        Row(start: start, input: input, outcome: outcome, phase: phase)
    }

    static let none = Phase.idle
    static let atFirst = Phase.atStep(process: 1, step: "initialize")
    static let running1 = Phase.running(process: 1, step: "initialize")
    static let awaiting = Phase.atStep(process: 1, step: "continue")
    static let running2 = Phase.running(process: 1, step: "continue")
    static let completing = Phase.completing(process: 1)
    static let busy = Outcome.refuse("a step of internal is already running")
    static let noProcess = Outcome.refuse("no authentication is under way")

    static let table: [Row] = [
        // Nothing under way: only a start does anything.
        row(.idle, .start, .started(1), .atStep(process: 1, step: "initialize")),
        row(.idle, .nextStep, .superseded, none), row(.idle, .nextStepOfAnother, .superseded, none),
        row(.idle, .answered, .superseded, none), row(.idle, .answeredToAnother, .superseded, none),
        row(.idle, .refused, .nothing, none), row(.idle, .malformed, .nothing, none),
        row(.idle, .continueWithCode, noProcess, none), row(.idle, .continueAnotherStep, noProcess, none),
        row(.idle, .continueWithoutCode, noProcess, none),
        row(.idle, .completed, .superseded, none), row(.idle, .completedInAnotherEpoch, .superseded, none),
        row(.idle, .completionFailed, .nothing, none), row(.idle, .abandon, .nothing, none),
        row(.idle, .cancel, .cancelled(nil), none),
        // Started, before its first step runs: only that step runs; nothing answered yet.
        row(.started, .start, .started(2), .atStep(process: 2, step: "initialize")),
        row(.started, .nextStep, .run(step: "initialize"), running1),
        row(.started, .nextStepOfAnother, .superseded, atFirst),
        row(.started, .answered, .superseded, atFirst), row(.started, .answeredToAnother, .superseded, atFirst),
        row(.started, .refused, .nothing, atFirst), row(.started, .malformed, .nothing, atFirst),
        row(.started, .continueWithCode, .refuse("expected step initialize of internal, got continue of internal"), atFirst),
        row(.started, .continueAnotherStep, .resume(1), atFirst),
        row(.started, .continueWithoutCode, .refuse("expected step initialize of internal, got continue of internal"), atFirst),
        row(.started, .completed, .superseded, atFirst), row(.started, .completedInAnotherEpoch, .superseded, atFirst),
        row(.started, .completionFailed, .nothing, atFirst), row(.started, .abandon, .nothing, none),
        row(.started, .cancel, .cancelled("internal"), none),
        // The first step runs; it needs nothing, so a failure ends the process.
        row(.runningFirstStep, .start, .started(2), .atStep(process: 2, step: "initialize")),
        // Only a process stopped before a step runs it: never twice at once.
        row(.runningFirstStep, .nextStep, .superseded, running1),
        row(.runningFirstStep, .nextStepOfAnother, .superseded, running1),
        row(.runningFirstStep, .answered, .needsInput("internal → continue (needs: code)"), awaiting),
        row(.runningFirstStep, .answeredToAnother, .superseded, running1),
        row(.runningFirstStep, .refused, .nothing, none), row(.runningFirstStep, .malformed, .nothing, none),
        row(.runningFirstStep, .continueWithCode, busy, running1),
        row(.runningFirstStep, .continueAnotherStep, busy, running1),
        row(.runningFirstStep, .continueWithoutCode, busy, running1),
        row(.runningFirstStep, .completed, .superseded, running1),
        row(.runningFirstStep, .completedInAnotherEpoch, .superseded, running1),
        row(.runningFirstStep, .completionFailed, .nothing, running1),
        row(.runningFirstStep, .abandon, .nothing, running1),
        row(.runningFirstStep, .cancel, .cancelled("internal"), none),
        // Waiting for the code: only the right continuation resumes; answers are stale.
        row(.awaitingInput, .start, .started(2), .atStep(process: 2, step: "initialize")),
        row(.awaitingInput, .nextStep, .run(step: "continue"), running2),
        row(.awaitingInput, .nextStepOfAnother, .superseded, awaiting),
        row(.awaitingInput, .answered, .superseded, awaiting), row(.awaitingInput, .answeredToAnother, .superseded, awaiting),
        row(.awaitingInput, .refused, .nothing, awaiting), row(.awaitingInput, .malformed, .nothing, awaiting),
        row(.awaitingInput, .continueWithCode, .resume(1), awaiting),
        row(.awaitingInput, .continueAnotherStep, .refuse("expected step continue of internal, got initialize of internal"), awaiting),
        row(.awaitingInput, .continueWithoutCode, .refuse("step continue needs code"), awaiting),
        row(.awaitingInput, .completed, .superseded, awaiting),
        row(.awaitingInput, .completedInAnotherEpoch, .superseded, awaiting),
        row(.awaitingInput, .completionFailed, .nothing, awaiting),
        row(.awaitingInput, .abandon, .nothing, none),
        row(.awaitingInput, .cancel, .cancelled("internal"), none),
        // The app supplied the code: the step runs next; the code is kept for it.
        row(.resumed, .start, .started(2), .atStep(process: 2, step: "initialize")),
        row(.resumed, .nextStep, .run(step: "continue"), running2),
        row(.resumed, .nextStepOfAnother, .superseded, awaiting),
        row(.resumed, .answered, .superseded, awaiting), row(.resumed, .answeredToAnother, .superseded, awaiting),
        row(.resumed, .refused, .nothing, awaiting), row(.resumed, .malformed, .nothing, awaiting),
        row(.resumed, .continueWithCode, .resume(1), awaiting),
        row(.resumed, .continueAnotherStep, .refuse("expected step continue of internal, got initialize of internal"), awaiting),
        row(.resumed, .continueWithoutCode, .resume(1), awaiting),
        row(.resumed, .completed, .superseded, awaiting), row(.resumed, .completedInAnotherEpoch, .superseded, awaiting),
        row(.resumed, .completionFailed, .nothing, awaiting), row(.resumed, .abandon, .nothing, none),
        row(.resumed, .cancel, .cancelled("internal"), none),
        // The step that needed the code runs: a refusal keeps it to be retried.
        row(.runningInputStep, .start, .started(2), .atStep(process: 2, step: "initialize")),
        row(.runningInputStep, .nextStep, .superseded, running2),
        row(.runningInputStep, .nextStepOfAnother, .superseded, running2),
        row(.runningInputStep, .answered, .complete, completing),
        row(.runningInputStep, .answeredToAnother, .superseded, running2),
        row(.runningInputStep, .refused, .nothing, awaiting), row(.runningInputStep, .malformed, .nothing, none),
        row(.runningInputStep, .continueWithCode, busy, running2),
        row(.runningInputStep, .continueAnotherStep, busy, running2),
        row(.runningInputStep, .continueWithoutCode, busy, running2),
        row(.runningInputStep, .completed, .superseded, running2),
        row(.runningInputStep, .completedInAnotherEpoch, .superseded, running2),
        row(.runningInputStep, .completionFailed, .nothing, running2),
        row(.runningInputStep, .abandon, .nothing, running2),
        row(.runningInputStep, .cancel, .cancelled("internal"), none),
        // The details are being fetched: only completion, failure, cancel or a new start count.
        row(.completing, .start, .started(2), .atStep(process: 2, step: "initialize")),
        row(.completing, .nextStep, .superseded, completing), row(.completing, .nextStepOfAnother, .superseded, completing),
        row(.completing, .answered, .superseded, completing), row(.completing, .answeredToAnother, .superseded, completing),
        row(.completing, .refused, .nothing, completing), row(.completing, .malformed, .nothing, completing),
        row(.completing, .continueWithCode, busy, completing), row(.completing, .continueAnotherStep, busy, completing),
        row(.completing, .continueWithoutCode, busy, completing),
        row(.completing, .completed, .signIn, none), row(.completing, .completedInAnotherEpoch, .superseded, none),
        row(.completing, .completionFailed, .nothing, none), row(.completing, .abandon, .nothing, completing),
        row(.completing, .cancel, .cancelled("internal"), none),
    ]

    @Test func theTableCoversEveryStateAndInput() {
        let covered = Set(Self.table.map { "\($0.start) \($0.input)" })
        #expect(covered.count == Start.allCases.count * Input.allCases.count)
        #expect(Self.table.count == covered.count)
    }

    @Test(arguments: table)
    func row(_ row: Row) {
        var machine = row.start.machine
        #expect(Self.apply(row.input, to: &machine) == row.outcome)
        #expect(machine.phase == row.phase)
        #expect(machine.ongoing == nil ? row.phase == .idle : row.phase != .idle)
    }

    @Test func theStartsMeetEveryPhase() {
        let phases = Set(Start.allCases.map { $0.machine.phase })
        #expect(phases.contains(.idle))
        #expect(phases.contains(.atStep(process: 1, step: "initialize")))
        #expect(phases.contains(.atStep(process: 1, step: "continue")))
        #expect(phases.contains(.running(process: 1, step: "initialize")))
        #expect(phases.contains(.running(process: 1, step: "continue")))
        #expect(phases.contains(.completing(process: 1)))
    }

    @Test func theOngoingAuthenticationNeverHoldsWhatTheAppSupplied() {
        var machine = Start.awaitingInput.machine
        _ = machine.continueWith(methodName: "internal", stepName: "continue", values: ["code": .string("123456")])
        #expect(machine.ongoing == OngoingAuthentication(methodName: "internal", nextStep: "continue", needs: ["code"]))
        #expect(!String(describing: machine.ongoing as Any).contains("123456"))
    }
}
