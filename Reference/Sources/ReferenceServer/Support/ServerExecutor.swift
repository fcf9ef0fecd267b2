import Foundation

/// The threads the in-process server runs on: a task executor of its own, so that the
/// server answers even when Swift's cooperative pool (two threads on a 2-core machine) is
/// busy with the app or the tests it serves. A test process runs many suites in parallel,
/// some of them synchronous and long; without this, a request could wait behind them past
/// its client's timeout.
///
/// The server's tasks, their children and the state actor's code run here (SE-0417's task
/// executor preference); the threads live as long as the process.
final class ServerExecutor: TaskExecutor, @unchecked Sendable {
    /// One executor for every server of the process.
    static let shared = ServerExecutor(threads: 2)

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "ReferenceServer \(index + 1)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
