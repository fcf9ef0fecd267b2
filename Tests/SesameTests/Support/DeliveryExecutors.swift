import Dispatch

/// A serial dispatch queue that says whether the current code runs on it.
final class MarkedQueue: Sendable {
    private static let key = DispatchSpecificKey<String>()
    let name: String
    let queue: DispatchQueue

    convenience init(_ name: String, attributes: DispatchQueue.Attributes = []) {
        self.init(name, queue: DispatchQueue(label: name, attributes: attributes))
    }

    private init(_ name: String, queue: DispatchQueue) {
        self.name = name
        self.queue = queue
        queue.setSpecific(key: Self.key, value: name)
    }

    /// The main queue, marked: the main actor runs its jobs there.
    static let main = MarkedQueue("main", queue: .main)

    /// Whether the caller runs on this queue.
    var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == name }
}

/// A serial executor that runs its jobs on a marked queue.
final class QueueSerialExecutor: SerialExecutor {
    let marked: MarkedQueue

    init(_ marked: MarkedQueue) { self.marked = marked }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        marked.queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}

/// An actor whose executor is a marked queue.
actor QueueActor {
    let executor: QueueSerialExecutor

    init(_ marked: MarkedQueue) { executor = QueueSerialExecutor(marked) }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}

/// A task executor that runs its jobs on a marked queue.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class QueueTaskExecutor: TaskExecutor {
    let marked: MarkedQueue

    init(_ marked: MarkedQueue) { self.marked = marked }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        marked.queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
