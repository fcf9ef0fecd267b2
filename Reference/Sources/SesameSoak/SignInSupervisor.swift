import ReferenceSDK

/// Signs the soak's service in as a guest whenever it is not signed in (at the start, and
/// after a terminal refresh failure made it `invalid`), one sign-in at a time, so that the
/// run goes on through revocations as an app would.
actor SignInSupervisor {
    /// How many sign-ins in a row may fail before the supervisor gives up.
    static let attempts = 100

    private let service: AuthenticationService<ReferenceSDKSchema>
    private let ledger: SoakLedger
    private var running: Task<Void, Never>?
    /// Whether a sign-in failed `attempts` times in a row.
    private(set) var gaveUp = false

    init(service: AuthenticationService<ReferenceSDKSchema>, ledger: SoakLedger) {
        self.service = service
        self.ledger = ledger
    }

    /// Returns once the service is signed in, signing in first when it is not; joins the
    /// sign-in under way, if any.
    func ensureSignedIn() async {
        if running == nil, case .authenticated = await service.state { return }
        if let running {
            await running.value
            return
        }
        let task = Task { await self.signIn() }
        running = task
        await task.value
        running = nil
    }

    private func signIn() async {
        for _ in 0..<Self.attempts {
            do {
                _ = try await service.authenticate(with: SingleStepMethod.guest)
                return
            } catch {
                ledger.recordSignInError(SoakOutcome(error))
            }
        }
        gaveUp = true
    }
}
