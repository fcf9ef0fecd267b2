import Foundation
import ReferenceSDK

/// Prints the service's events as they arrive and keeps them, so that each step can check
/// that what should have happened did.
final class EventLog: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var stored: [AuthenticationEvent<ReferenceSDKSchema>] = []
    private var subscription: Subscription?

    func attach(to service: AuthenticationService<ReferenceSDKSchema>) async {
        let subscription = await service.subscribe { [self] event in
            let previous = lock.withLock { () -> AuthenticationState<AuthenticationDetails>? in
                defer { stored.append(event) }
                return stored.last { if case .stateChanged = $0 { true } else { false } }
                    .flatMap { if case .stateChanged(let state) = $0 { state } else { nil } }
            }
            Console.event(event, previous: previous)
        }
        lock.withLock { self.subscription = subscription }
    }

    var events: [AuthenticationEvent<ReferenceSDKSchema>] { lock.withLock { stored } }

    var count: Int { lock.withLock { stored.count } }

    /// Waits (polling every 5 ms, at most 3 s) until an event recorded after the first
    /// `index` ones satisfies `matches`.
    /// - Throws: ``DemoFailure`` when none does in time.
    func waitForEvent(
        after index: Int, _ what: String,
        matching matches: (AuthenticationEvent<ReferenceSDKSchema>) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(3)
        while ContinuousClock.now < deadline {
            if events.dropFirst(index).contains(where: matches) { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw DemoFailure("expected \(what), which never came")
    }

    /// Waits for a `stateChanged` to `state` after the first `index` events.
    func waitForState(after index: Int, _ state: AuthenticationState<AuthenticationDetails>) async throws {
        try await waitForEvent(after: index, "the state \(state)") { $0 == .stateChanged(state) }
    }

    func cancel() {
        lock.withLock { subscription }?.cancel()
    }
}

/// A step of the demo that did not do what it should.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `value`, or a ``DemoFailure`` saying what was missing.
func require<T>(_ value: T?, _ what: @autoclosure () -> String) throws -> T {
    guard let value else { throw DemoFailure(what()) }
    return value
}

/// Fails the demo unless `condition` holds.
func check(_ condition: Bool, _ what: @autoclosure () -> String) throws {
    guard condition else { throw DemoFailure(what()) }
}
