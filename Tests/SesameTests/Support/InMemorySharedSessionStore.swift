import Foundation
import SesameTestSupport
@testable import Sesame

/// What several "processes" share in ``InMemorySharedSessionStore``: the saved session, the
/// current user, a change counter and the refresh lock.
final class SharedSessionBox: @unchecked Sendable {
    fileprivate let lock = NSLock()
    fileprivate var session: StoredSession<TestDetails>?
    fileprivate var currentUser: String?
    /// Bumped by each write, with the handle that wrote.
    fileprivate var version = 0
    fileprivate var lastWriter = -1
    fileprivate var lockHolder: Int?
    fileprivate var watchers: [Int: AsyncStream<Void>.Continuation] = [:]
    private var handles = 0

    /// A session store over this box, as one more process would have.
    func handle() -> InMemorySharedSessionStore {
        let id = lock.withLock {
            handles += 1
            return handles
        }
        return InMemorySharedSessionStore(box: self, id: id)
    }

    /// The saved session, as any process would read it.
    var saved: StoredSession<TestDetails>? { lock.withLock { session } }

    fileprivate func write(by id: Int, _ change: () -> Void) {
        let others = lock.withLock {
            change()
            version += 1
            lastWriter = id
            return watchers.filter { $0.key != id }.map(\.value)
        }
        for watcher in others { watcher.yield() }
    }
}

/// An in-memory `SharedSessionStore`: the fast twin of `SharedSQLiteSessionStore` (tested with
/// real processes in Reference/'s SharedSessionEndToEndTests). Each handle is one process; a
/// handle's own writes do not reach its own `changes()`.
final class InMemorySharedSessionStore: SharedSessionStore, @unchecked Sendable {
    typealias Details = TestDetails
    let box: SharedSessionBox
    let id: Int
    private let refreshLocks = NSLock()
    private(set) var lockAcquisitions = 0

    fileprivate init(box: SharedSessionBox, id: Int) {
        self.box = box
        self.id = id
    }

    func load() throws -> StoredSession<TestDetails>? { box.saved }

    func save(_ session: StoredSession<TestDetails>) throws {
        box.write(by: id) {
            box.session = session
            box.currentUser = session.details.uid
        }
    }

    func clear() throws { try clear(ending: .invalidated) }

    /// What ``acquireRefreshLock(timeout:)`` throws instead of taking the lock, when set.
    let lockFailure = LockedValue<(any Error & Sendable)?>(nil)

    func acquireRefreshLock(timeout: Duration) async throws -> any RefreshLock {
        if let failure = lockFailure.value { throw failure }
        while true {
            let taken = box.lock.withLock {
                guard box.lockHolder == nil else { return false }
                box.lockHolder = id
                return true
            }
            if taken {
                refreshLocks.withLock { lockAcquisitions += 1 }
                return Held(box: box)
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    func savedState() throws -> SavedSessionState<TestDetails> {
        box.lock.withLock {
            if let session = box.session { return .saved(session) }
            if let user = box.currentUser { return .invalidated(userID: user) }
            return .signedOut
        }
    }

    func save(_ session: StoredSession<TestDetails>, replacing expected: Credential) throws -> Bool {
        let accepted = box.lock.withLock {
            guard let saved = box.session?.credential.accessToken else { return false }
            return saved == expected.accessToken || saved == session.credential.accessToken
        }
        guard accepted else { return false }
        try save(session)
        return true
    }

    func clear(ending: UserSessionEnding?) throws {
        box.write(by: id) {
            box.session = nil
            if ending == .signOut { box.currentUser = nil }
        }
    }

    func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        box.lock.withLock { box.watchers[id] = continuation }
        continuation.onTermination = { [box, id] _ in box.lock.withLock { _ = box.watchers.removeValue(forKey: id) } }
        return stream
    }

    private struct Held: RefreshLock {
        let box: SharedSessionBox
        func release() { box.lock.withLock { box.lockHolder = nil } }
    }
}
