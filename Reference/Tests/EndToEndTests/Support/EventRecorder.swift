import Foundation
import ReferenceSDK
import SesameTestSupport
import Testing

typealias Event = AuthenticationEvent<ReferenceSDKSchema>
typealias State = AuthenticationState<AuthenticationDetails>

/// Records what a service publishes, through a callback subscription.
final class EventRecorder: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var stored: [Event] = []
    private var subscription: Subscription?

    private init() {}

    /// Subscribes to `service`; the first event recorded is its current state.
    static func attach(to service: Service) async -> EventRecorder {
        let recorder = EventRecorder()
        let subscription = await service.subscribe { event in recorder.append(event) }
        recorder.lock.withLock { recorder.subscription = subscription }
        return recorder
    }

    private func append(_ event: Event) {
        lock.withLock { stored.append(event) }
    }

    var events: [Event] { lock.withLock { stored } }

    /// The states published, in order.
    var states: [State] {
        events.compactMap { if case .stateChanged(let state) = $0 { state } else { nil } }
    }

    /// The server events delivered, in order.
    var serverEvents: [ReferenceSDKEvent] {
        events.compactMap { if case .server(let event) = $0 { event } else { nil } }
    }

    var refreshes: Int {
        events.filter { if case .tokenRefreshed = $0 { true } else { false } }.count
    }

    var refreshFailures: [RefreshFailure] {
        events.compactMap { if case .refreshFailed(let failure) = $0 { failure } else { nil } }
    }

    func cancel() {
        lock.withLock { subscription }?.cancel()
    }

    /// Waits until `condition` holds for the recorded events, polling every 5 ms for at
    /// most `timeout`. Returns whether it held. The default only bounds a failure: in a whole
    /// `swift test` the reference servers of 50 suites share two threads, and an event can
    /// take seconds to be pushed (5 s failed there).
    func wait(timeout: Duration = .seconds(30), until condition: (EventRecorder) -> Bool) async -> Bool {
        await poll(timeout: timeout) { condition(self) }
    }
}
