#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// Makes Combine futures of async calls.
enum FutureBridge {
    /// A future that runs `operation` in a task at once and fulfils with its result or error.
    static func future<Output: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Output
    )
        -> Future<Output, any Error>
    {
        Future { promise in
            let promise = Promise(promise)
            Task {
                do {
                    promise.fulfil(.success(try await operation()))
                } catch {
                    promise.fulfil(.failure(error))
                }
            }
        }
    }

    /// A future that runs `operation` in a task at once and fulfils with its result.
    static func future<Output: Sendable>(_ operation: @escaping @Sendable () async -> Output) -> Future<Output, Never> {
        Future { promise in
            let promise = Promise(promise)
            Task { promise.fulfil(.success(await operation())) }
        }
    }

    /// A future's promise, to fulfil from a task.
    ///
    /// `@unchecked Sendable`: Combine's and OpenCombine's `Future` take their promise from
    /// any thread (both lock around the result), and it is fulfilled once.
    final class Promise<Output, Failure: Error>: @unchecked Sendable {
        private let promise: (Result<Output, Failure>) -> Void

        init(_ promise: @escaping (Result<Output, Failure>) -> Void) {
            self.promise = promise
        }

        func fulfil(_ result: Result<Output, Failure>) {
            promise(result)
        }
    }
}
