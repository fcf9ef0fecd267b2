import Foundation
import OpenAPIRuntime
import OpenAPIURLSession
import SesameTestSupport
import Testing
@_spi(Generated) @testable import Sesame
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
@_spi(Generated) import SesameDescription
#endif

/// A one-off measurement, not a test (docs/runtime.md, "Response
/// limits"): the peak resident memory of a process whose client reads a 1 GiB 2xx body
/// without `Content-Length`, under the default 8 MiB limit. It runs only when
/// `SESAME_MEASURE_RSS` names the transport (`streaming`, the default since issue 29, or
/// `urlsession`, the default before), one transport per process because the peak is the
/// process's:
///
///     SESAME_MEASURE_RSS=urlsession swift test --filter ResponseMemoryMeasurement
///     SESAME_MEASURE_RSS=streaming swift test --filter ResponseMemoryMeasurement
@Suite struct ResponseMemoryMeasurement {
    static let transport = ProcessInfo.processInfo.environment["SESAME_MEASURE_RSS"]

    /// The process's peak resident set so far, in MiB.
    static func peakMiB() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss) >> 20  // bytes
        #else
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) >> 10  // KiB
        #endif
    }

    /// The process's resident set now, in MiB (Linux; -1 elsewhere).
    static func currentMiB() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
        let pages = text.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return (pages * Int(sysconf(Int32(_SC_PAGESIZE)))) >> 20
    }

    @Test(.enabled(if: transport != nil))
    func peakMemoryOfAGigabyteBodyWithoutLength() async throws {
        let server = try HostileServerTests.server { _, connection in
            connection.writeHead([("Content-Type", "application/json")])
            connection.stream(1 << 30, of: HostileServerTests.pattern)
        }
        defer { server.stop() }
        let transport: any ClientTransport =
            Self.transport == "urlsession" ? URLSessionTransport() : StreamingURLSessionTransport()
        let service = AuthenticationService<TestSchema>(
            configuration: .init(baseURL: server.baseURL, transport: transport, receivesServerEvents: false))
        _ = try await service.authenticate(with: TestSingleStepMethod.guest)
        let before = Self.peakMiB()
        let error = await #expect(throws: SesameError.self) { try await service.perform(OperationRequest(TestRequests.notes)) }
        _ = await poll(timeout: .seconds(60)) { server.openConnections == 0 }
        print(
            "transport \(Self.transport ?? ""): peak RSS \(before) MiB before the call, \(Self.peakMiB()) MiB after;"
                + " \(Self.currentMiB()) MiB held after; \(server.bytesSent >> 20) MiB sent by the server; \(String(describing: error))")
    }
}
