/// Calls `condition` every `interval` until it holds or `timeout` passes (real time), and
/// returns whether it held; the last call comes after the deadline, so a condition that
/// becomes true at the very end still counts. The default timeout is long because it only
/// bounds a failure: on the 2-core CI machine the runtime's suites start all at once beside
/// the generator's, and a task can wait more than 10 s for a core.
public func poll(
    every interval: Duration = .milliseconds(5), timeout: Duration = .seconds(30),
    _ condition: () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return await condition()
}
