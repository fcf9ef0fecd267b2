/// The rules of a sign-in under way, as a value: which method runs, which step comes next,
/// what the app supplied, and the phase it is in (stopped before a step, running one, or
/// completing), each phase a case of the machine's state carrying its process. Each input
/// is a `mutating func` returning an action enum of its own, so the caller (the
/// authentication service) handles only what can happen after that input. No I/O and no
/// `await` happen here.
///
/// At most one process exists: starting a method replaces the one under way, whose steps
/// are then discarded when they answer (their id no longer matches).
@_spi(Generated) import SesameDescription

struct SignInMachine: Sendable {
    /// What to do before running the next step.
    enum StepAction: Sendable {
        /// Run this step of this process (the machine now counts it as running).
        case run(AuthenticationStepDescription, AuthenticationProcess)
        /// The process was cancelled or replaced: stop.
        case superseded
    }

    /// What to do after a step answered.
    enum AnswerAction: Sendable {
        /// The last step answered with the token response: complete the sign-in.
        case complete(AuthenticationProcess)
        /// The next step needs values from the app: return to it.
        case needsInput(OngoingAuthentication)
        /// Run the next step.
        case runNext
        /// The process was cancelled or replaced meanwhile: discard the answer.
        case superseded
    }

    /// What to do with the values the app supplied for the next step.
    enum ContinueAction: Sendable, Equatable {
        /// Run the process numbered `id` from its next step.
        case resume(id: UInt64)
        /// Refuse the call, for this reason; nothing changed.
        case refuse(reason: String)
    }

    /// What to do once the user's details arrived for a completed method.
    enum CompletionAction: Sendable, Equatable {
        /// Sign the user in; the process is over.
        case signIn
        /// A sign-out, a cancellation or another sign-in happened meanwhile: discard it.
        case superseded
    }

    /// Where the sign-in stands, for tests and logs: the process and its step, never what
    /// the process holds.
    enum Phase: Hashable, Sendable {
        /// No process is under way.
        case idle
        /// Process `process` stopped before `step`: about to run it, or waiting for the
        /// app's values (``SignInMachine/continueWith(methodName:stepName:values:)``).
        case atStep(process: UInt64, step: String)
        /// Process `process` is running `step`.
        case running(process: UInt64, step: String)
        /// Process `process`'s last step answered: the user's details are being fetched.
        case completing(process: UInt64)
    }

    /// The phase, with the process it concerns.
    private enum State: Sendable {
        case idle
        case atStep(AuthenticationProcess)
        case running(AuthenticationProcess)
        case completing(AuthenticationProcess)

        var process: AuthenticationProcess? {
            switch self {
            case .idle: return nil
            case .atStep(let process), .running(let process), .completing(let process): return process
            }
        }
    }

    private var state: State = .idle
    /// Processes started over the machine's life, which also numbers them.
    private var started: UInt64 = 0
    /// The process whose running browser step has its browser open: from ``nextStep(of:)``
    /// to ``browserReturned(id:)``. A process id that no longer runs means nothing.
    private var openBrowser: UInt64?

    /// The method under way, for the app; never holds a secret.
    var ongoing: OngoingAuthentication? { state.process?.ongoing }

    /// The phase of the process under way.
    var phase: Phase {
        switch state {
        case .idle: return .idle
        case .atStep(let process): return .atStep(process: process.id, step: process.nextStep?.name ?? "")
        case .running(let process): return .running(process: process.id, step: process.nextStep?.name ?? "")
        case .completing(let process): return .completing(process: process.id)
        }
    }

    // MARK: Inputs

    /// The app starts `method` in session epoch `epoch`: it replaces any process under way,
    /// whatever its phase.
    /// - Returns: the new process's number.
    mutating func start(
        _ method: AuthenticationMethodDescription, arguments: [String: JSONValue], epoch: UInt64, attachingTo user: String? = nil,
        reauthenticating: String? = nil, authorization: AuthorizationParameters? = nil
    ) -> UInt64 {
        started += 1
        state = .atStep(
            AuthenticationProcess(
                id: started, method: method, arguments: arguments, epoch: epoch, attachingTo: user, reauthenticating: reauthenticating,
                authorization: authorization))
        return started
    }

    /// The service is about to run process `id`'s next step: only a process stopped before
    /// a step runs it.
    mutating func nextStep(of id: UInt64) -> StepAction {
        guard case .atStep(let current) = state, current.id == id, let step = current.nextStep else { return .superseded }
        state = .running(current)
        if step.interpreter.opensBrowser { openBrowser = id }
        return .run(step, current)
    }

    /// Whether the process under way runs a browser step whose browser is still open: a
    /// cancellation then closes the browser (``Browser/dismiss()``).
    var isBrowserOpen: Bool {
        guard case .running(let current) = state else { return false }
        return openBrowser == current.id
    }

    /// Process `id`'s browser came back with a redirect.
    /// - Returns: whether its code may be exchanged: only while the process still runs the
    ///   step that opened the browser; false after a cancellation, a sign-out or another
    ///   sign-in, and the code is then never sent.
    mutating func browserReturned(id: UInt64) -> Bool {
        guard isRunning(id: id), openBrowser == id else { return false }
        openBrowser = nil
        return true
    }

    /// Process `id`'s running step answered with `response`.
    mutating func stepAnswered(_ response: JSONValue, id: UInt64) -> AnswerAction {
        guard case .running(var current) = state, current.id == id, let step = current.nextStep else { return .superseded }
        current.responses[step.name] = response
        current.kindState = nil
        if current.isAtLastStep {
            // Not over yet: the details are fetched before the process ends.
            state = .completing(current)
            return .complete(current)
        }
        current.nextStepIndex += 1
        state = .atStep(current)
        if current.awaitsInput, let ongoing = current.ongoing { return .needsInput(ongoing) }
        return .runNext
    }

    /// Process `id`'s running step's kind got to `kindState` (a device step's user code): the
    /// app sees its prompt in ``ongoing`` until the step answers.
    /// - Returns: whether the process still runs that step (false: cancelled or replaced).
    mutating func stepProgressed(_ kindState: StepKindState, id: UInt64) -> Bool {
        guard case .running(var current) = state, current.id == id else { return false }
        current.kindState = kindState
        state = .running(current)
        return true
    }

    /// Whether process `id` still runs its step (a device step polls while it does).
    func isRunning(id: UInt64) -> Bool {
        if case .running(let current) = state { return current.id == id }
        return false
    }

    /// Process `id`'s running step failed. A step that needed input can be retried after a
    /// refusal or a failed connection; a malformed answer means the back-end ran the step,
    /// so the process ends, as it does for a step that needed nothing.
    mutating func stepFailed(id: UInt64, malformedAnswer: Bool) {
        guard case .running(let current) = state, current.id == id else { return }
        let retryable = !(current.nextStep?.needs.isEmpty ?? true) && !malformedAnswer
        var stopped = current
        stopped.kindState = nil
        state = retryable ? .atStep(stopped) : .idle
    }

    /// The app supplies `values` for `stepName` of `methodName`.
    mutating func continueWith(methodName: String, stepName: String, values: [String: JSONValue]) -> ContinueAction {
        let current: AuthenticationProcess
        switch state {
        case .idle:
            return .refuse(reason: "no authentication is under way")
        case .running(let process), .completing(let process):
            return .refuse(reason: "a step of \(process.method.name) is already running")
        case .atStep(let process):
            current = process
        }
        guard let step = current.nextStep else { return .refuse(reason: "no authentication is under way") }
        guard methodName == current.method.name, stepName == step.name else {
            return .refuse(reason: "expected step \(step.name) of \(current.method.name), got \(stepName) of \(methodName)")
        }
        let supplied = current.values.merging(values) { _, new in new }
        if let missing = step.needs.first(where: { supplied[$0] == nil }) {
            return .refuse(reason: "step \(step.name) needs \(missing)")
        }
        var resumed = current
        resumed.values = supplied
        state = .atStep(resumed)
        return .resume(id: resumed.id)
    }

    /// The details of process `id`'s user arrived; `epoch` is the session epoch now. A
    /// process that started in another epoch (a sign-out or a restore happened meanwhile)
    /// can never complete: it ends.
    mutating func completed(id: UInt64, epoch: UInt64) -> CompletionAction {
        guard case .completing(let current) = state, current.id == id else { return .superseded }
        state = .idle
        return current.epoch == epoch ? .signIn : .superseded
    }

    /// Completing process `id` failed (a malformed token response, the details refused).
    mutating func completionFailed(id: UInt64) {
        if case .completing(let current) = state, current.id == id { state = .idle }
    }

    /// Process `id` stopped for input although its caller could not supply any.
    mutating func abandon(id: UInt64) {
        if case .atStep(let current) = state, current.id == id { state = .idle }
    }

    /// The app cancels the process under way, whatever its phase, or signs out.
    /// - Returns: the cancelled method's name, nil when none was under way.
    @discardableResult
    mutating func cancel() -> String? {
        defer {
            state = .idle
            openBrowser = nil
        }
        return state.process?.method.name
    }
}
