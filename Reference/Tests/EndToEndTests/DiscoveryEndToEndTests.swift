import Foundation
import ReferenceServer
import SesameTestSupport
import Testing

/// `sesame discover` against the reference server's `/.well-known/openid-configuration` over
/// loopback: it writes the server's issuer into a copy of Schema/, and refuses a document
/// whose issuer is not the URL's (OpenID Connect Discovery 1.0 §4.3). Runs the root
/// package's `sesame` (`swift build --product sesame` first).
@Suite("Discovery (sesame discover), end to end", .serialized, .secretScan)
struct DiscoveryEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `sesame` with `arguments`; its exit status and standard error.
    static func sesame(_ arguments: [String]) async throws -> (status: Int32, errors: String) {
        let executable = root.appendingPathComponent(".build/debug/sesame")
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path), "build the sesame product first: swift build --product sesame")
        return try await onOwnThread {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }
    }

    /// A copy of Schema/ in a temporary folder.
    static func schemaCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-discover-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: root.appendingPathComponent("Schema"), to: folder)
        return folder
    }

    @Test("the reference server's metadata is written into sdk.yaml, comments kept, and the schema stays valid")
    func discoverTheReferenceServer() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let schema = try Self.schemaCopy()
            defer { try? FileManager.default.removeItem(at: schema) }
            let run = try await Self.sesame(["discover", e2e.backEnd.issuer, "--schema", schema.path])
            #expect(run.status == 0, "\(run.errors)")
            let sdk = try String(contentsOf: schema.appendingPathComponent("sdk.yaml"), encoding: .utf8)
            #expect(sdk.contains("  issuer: \(e2e.backEnd.issuer)\n  issuerInResponses: true\n  baseURL: \(e2e.backEnd.issuer)"))
            #expect(sdk.contains("# the auth server's own \"token no good\""))
            #expect(run.errors.contains("note: token_endpoint: /oauth/token on the authorization server"))
            #expect(try await Self.sesame(["discover", e2e.backEnd.issuer, "--schema", schema.path, "--check"]).status == 0)
            #expect(try await Self.sesame(["validate", schema.path]).status == 0)
        }
    }

    @Test("a document naming another issuer than the URL's is refused and nothing is written")
    func issuerMismatch() async throws {
        try await withEndToEnd(separateAuthorizationServer: true) { e2e in
            let schema = try Self.schemaCopy()
            defer { try? FileManager.default.removeItem(at: schema) }
            let before = try String(contentsOf: schema.appendingPathComponent("sdk.yaml"), encoding: .utf8)
            await e2e.backEnd.server.state.setIssuer("https://impostor.example.com")
            let run = try await Self.sesame(["discover", e2e.backEnd.issuer, "--schema", schema.path])
            #expect(run.status == 1)
            #expect(run.errors.contains("error: issuer 'https://impostor.example.com' is not the expected issuer '\(e2e.backEnd.issuer)'"))
            #expect(try String(contentsOf: schema.appendingPathComponent("sdk.yaml"), encoding: .utf8) == before)
        }
    }
}
