import Foundation

/// Runs `operation`, giving up after `timeout` (cancelling it): nil when it did not finish
/// in time. For calls that a platform bug may leave hanging forever.
func withTimeout<Value: Sendable>(
    _ timeout: Duration,
    _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
}

/// The result of `body`, success or error; the error is shown to the test's secret scan.
func outcome<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
    do {
        return .success(try await body())
    } catch {
        ScanRecord.current?.show(error, as: "what outcome(_:) caught")
        return .failure(error)
    }
}

/// Where URLSession (swift-corelibs-foundation, Linux) never completes a request answered
/// 401 with a `WWW-Authenticate: Basic` challenge when it has no credential to offer
/// (swift-corelibs-foundation#5456, fixed by #5457/#5458 after this toolchain): the
/// runtime's default transport then hangs. On Apple platforms the 401 comes back.
let urlSessionHangsOnBasicChallenge: Bool = {
    #if canImport(Darwin)
    false
    #else
    true
    #endif
}()
