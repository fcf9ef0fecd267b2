extension AuthenticationService {
    /// Performs the state machine's actions in order, awaiting the ones that talk to the
    /// back-end or the restoration delegate. `.revokeSession` is left to `unauthenticate()`,
    /// which kept the credential to revoke.
    func execute(_ actions: [Machine.Action], isStartup: Bool) async {
        for action in actions {
            switch action {
            case .consultRestorationDelegate:
                await consultRestorationDelegate(isStartup: isStartup)
            case .verifyCredential:
                await verifyCredential()
            default:
                apply([action])
            }
        }
    }

    /// Performs the actions that need no `await`; the others run in a task of their own.
    func apply(_ actions: [Machine.Action]) {
        for action in actions {
            switch action {
            case .startEpoch:
                epoch += 1
                refreshInFlight = nil
                refreshHistory = []
                eventStreamTask?.cancel()
                eventStreamTask = nil
            case .persistSession:
                guard let session else { continue }
                do {
                    try configuration.sessionStore.save(session)
                } catch {
                    logger.error("the session store failed to save: \(type(of: error))")
                }
            case .clearSession:
                session = nil
                do {
                    try configuration.sessionStore.clear()
                } catch {
                    logger.error("the session store failed to clear: \(type(of: error))")
                }
            case .revokeSession:
                break
            case .consultRestorationDelegate, .verifyCredential:
                Task { await self.execute([action], isStartup: false) }
            case .publish(let state):
                logger.info("authentication state: \(state)")
                broadcaster.broadcast(.stateChanged(state), logger: logger)
            }
        }
        updateEventStream()
    }
}
