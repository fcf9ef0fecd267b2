import Foundation
import SesameTestSupport
import Testing
@testable import SesameGenerator

extension CommandLineTests {
    @Test func discoverUpdatesSdkYamlFromAFileAndCheckSaysWhenItIsStale() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, _) = try schemaAndOutput(in: folder)
        try writeSchema(try ReferenceSchema.sources(), to: schema)
        let metadata = folder.appendingPathComponent("idp.json")
        try Data(
            #"{"issuer":"https://idp.example.com","authorization_endpoint":"https://idp.example.com/oauth/authorize","token_endpoint":"https://idp.example.com/oauth/token","authorization_response_iss_parameter_supported":true}"#
                .utf8
        ).write(to: metadata)
        let sdk = schema.appendingPathComponent("sdk.yaml")
        let before = try String(contentsOf: sdk, encoding: .utf8)

        let stale = try await run(["discover", metadata.path, "--issuer", "https://idp.example.com", "--schema", schema.path, "--check"])
        #expect(stale.status == 1)
        #expect(try String(contentsOf: sdk, encoding: .utf8) == before)

        let wrongIssuer = try await run(["discover", metadata.path, "--schema", schema.path, "--issuer", "https://evil.example.com"])
        #expect(wrongIssuer.status == 1)
        #expect(wrongIssuer.errors.contains("idp.json:1:2: error: issuer 'https://idp.example.com' is not the expected issuer"))
        #expect(try String(contentsOf: sdk, encoding: .utf8) == before)

        let written = try await run(["discover", metadata.path, "--schema", schema.path, "--issuer", "https://idp.example.com"])
        #expect(written.status == 0, "\(written.errors)")
        let after = try String(contentsOf: sdk, encoding: .utf8)
        #expect(after.contains("  issuer: https://idp.example.com\n  issuerInResponses: true\n  baseURL: https://idp.example.com"))
        #expect(after.contains("# the API: operations"))  // comments kept
        #expect(
            try await run(["discover", metadata.path, "--issuer", "https://idp.example.com", "--schema", schema.path, "--check"]).status
                == 0)
        #expect(try await run(["validate", schema.path]).status == 0)
    }

    @Test func discoverUpdatesTheOpenIDBlockAndCheckSaysWhenItIsStale() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, _) = try schemaAndOutput(in: folder)
        try writeSchema(try ReferenceSchema.sources(), to: schema)
        // The reference server at the schema's port, whose keys and end-session endpoint moved.
        let metadata = folder.appendingPathComponent("idp.json")
        try Data(
            #"{"issuer":"http://127.0.0.1:8081","authorization_endpoint":"http://127.0.0.1:8081/oauth/authorize","token_endpoint":"http://127.0.0.1:8081/oauth/token","authorization_response_iss_parameter_supported":true,"jwks_uri":"http://127.0.0.1:8081/keys/v2","end_session_endpoint":"http://127.0.0.1:8081/v2/logout","id_token_signing_alg_values_supported":["ES256","none"]}"#
                .utf8
        ).write(to: metadata)
        let sdk = schema.appendingPathComponent("sdk.yaml")
        let before = try String(contentsOf: sdk, encoding: .utf8)
        let arguments = ["discover", metadata.path, "--issuer", "http://127.0.0.1:8081", "--schema", schema.path]

        #expect(try await run(arguments + ["--check"]).status == 1)
        #expect(try String(contentsOf: sdk, encoding: .utf8) == before)
        let written = try await run(arguments)
        #expect(written.status == 0, "\(written.errors)")
        let after = try String(contentsOf: sdk, encoding: .utf8)
        #expect(after.contains("  keys: /keys/v2            # its jwks_uri, on the authorization server\n"))
        #expect(after.contains("  algorithms: [ES256]              # what it signs with\n"))
        #expect(after.contains("  endSession: /v2/logout               # its end_session_endpoint"))
        #expect(after.contains("  claims: OpenIDClaims"))
        #expect(try await run(arguments + ["--check"]).status == 0)
        #expect(try await run(["validate", schema.path]).status == 0)
    }

    @Test func discoverWithAlgorithmsMergeKeepsTheSchemasAlgorithms() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, _) = try schemaAndOutput(in: folder)
        try writeSchema(try ReferenceSchema.sources(), to: schema)
        // A server that signs with ES256 only, for a schema that also accepts RS256 (another one's).
        let metadata = folder.appendingPathComponent("idp.json")
        try Data(
            #"{"issuer":"http://127.0.0.1:8081","authorization_endpoint":"http://127.0.0.1:8081/oauth/authorize","token_endpoint":"http://127.0.0.1:8081/oauth/token","jwks_uri":"http://127.0.0.1:8081/oauth/jwks","id_token_signing_alg_values_supported":["ES256","PS256"]}"#
                .utf8
        ).write(to: metadata)
        let sdk = schema.appendingPathComponent("sdk.yaml")
        let arguments = ["discover", metadata.path, "--issuer", "http://127.0.0.1:8081", "--schema", schema.path]
        let written = try await run(arguments + ["--algorithms", "merge"])
        #expect(written.status == 0, "\(written.errors)")
        #expect(try String(contentsOf: sdk, encoding: .utf8).contains("  algorithms: [RS256, ES256, PS256]"))
        #expect(written.errors.contains("openID.algorithms: PS256 added"))
        #expect(try await run(arguments + ["--algorithms", "merge", "--check"]).status == 0)
        #expect(try await run(["validate", schema.path]).status == 0)
        #expect(try await run(arguments + ["--algorithms", "keep"]).status != 0)
    }

    @Test func discoverRefusesPlainHTTPOutsideLoopbackBeforeFetching() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (schema, _) = try schemaAndOutput(in: folder)
        let refused = try await run(["discover", "http://idp.example.com", "--schema", schema.path])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("refusing plain http outside loopback"))
    }
}
