import Foundation
import SesameTestSupport
import Testing

/// `make demo` walks the generated SDK through a whole session, checking each step; this
/// runs the built `sesame-demo` so that a step that stops doing what it says fails the suite.
@Suite struct DemoTests {
    @Test func everyStepOfTheDemoDoesWhatItSays() async throws {
        let executable = try #require(builtProduct(named: "sesame-demo"), "build the sesame-demo product first (swift build)")
        let (status, output) = try await onOwnThread { () throws -> (Int32, String) in
            let process = Process()
            process.executableURL = executable
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        #expect(status == 0, "sesame-demo failed:\n\(output.suffix(2000))")
        #expect(output.contains("Every step did what it should"))
        #expect(output.contains("migrated it to v3 on sign-in"))
    }
}
