import Foundation
import HTTPTypes
import SesameTestSupport
import Testing

/// The built `reference-server` program: `--authorization-port` serves a second origin.
@Suite struct CommandLineTests {
    @Test func authorizationPortServesTheAuthorizationServerOnASecondOrigin() async throws {
        let executable = try #require(builtProduct(named: "reference-server"), "build the reference-server product first (swift build)")
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--port", "0", "--authorization-port", "0"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Stops the server even when the test fails before it does.
        defer { if process.isRunning { process.terminate() } }
        let handle = pipe.fileHandleForReading
        let banner = try await onOwnThread { () -> String in
            var text = ""
            while !(text.contains("the API listening on") && text.contains("the authorization server listening on")) {
                let data = handle.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        let api = try #require(Self.port(after: "the API listening on http://127.0.0.1:", in: banner), "\(banner)")
        let authorization = try #require(
            Self.port(after: "the authorization server listening on http://127.0.0.1:", in: banner), "\(banner)")
        #expect(api != authorization)

        #expect(try await Harness.send(.get, "/status", host: "127.0.0.1", port: api).status == .ok)
        #expect(try await Harness.send(.get, "/status", host: "127.0.0.1", port: authorization).status == .notFound)
        let page = try await Harness.send(
            .get, "/oauth/authorize?\(Harness.authorizationQuery())", host: "127.0.0.1", port: authorization)
        #expect(page.status == .ok)
        #expect(page.body.contains("<form id=\"login\""))
        let onAPI = try await Harness.send(
            .get, "/oauth/authorize?\(Harness.authorizationQuery())", host: "127.0.0.1", port: api)
        #expect(onAPI.status == .notFound)

        process.terminate()
        let status = try await onOwnThread { () -> Int32 in
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(status == 0)
    }

    @Test(arguments: [["--authorization-port", "70000"], ["--port", "9000", "--authorization-port", "9000"]])
    func badAuthorizationPortIsAUsageError(arguments: [String]) async throws {
        let executable = try #require(builtProduct(named: "reference-server"), "build the reference-server product first (swift build)")
        let run = try await runToEnd(executable, arguments: arguments)
        #expect(run.status == 64)
        #expect(run.output.contains("authorization port"))
    }

    /// The digits right after `prefix` in `text`.
    static func port(after prefix: String, in text: String) -> Int? {
        guard let range = text.range(of: prefix) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}
