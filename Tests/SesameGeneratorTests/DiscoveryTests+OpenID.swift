import Foundation
import Testing
@testable import SesameGenerator

/// `sesame discover` and sdk.yaml's `openID` block: `keys`, `algorithms` and `endSession`
/// updated in place when the block exists, under the rules and refusals of the
/// `authorizationServer` edit; printed as a note when it does not.
@Suite struct DiscoveryOpenIDTests {
    static let members = [
        "jwks_uri": #""https://idp.example.com/oauth2/jwks""#,
        "end_session_endpoint": #""https://idp.example.com/oauth2/logout""#,
        "id_token_signing_alg_values_supported": #"["RS256", "HS256", "none", "PS256"]"#,
    ]

    static func document(_ changes: [String: String] = [:]) throws -> DiscoveryDocument {
        try #require(DiscoveryTests.read(members.merging(changes) { $1 }).0)
    }

    static let server =
        "sdk: Demo\nauthorizationServer: { baseURL: https://idp.example.com/oauth2, issuer: https://idp.example.com, issuerInResponses: true }\n"

    @Test func theOpenIDBlockIsUpdatedInPlaceKeepingCommentsAndOtherKeys() throws {
        let text =
            Self.server + """
                openID:                      # the provider
                  keys: /old-jwks            # its jwks_uri
                  algorithms: [ES256]        # what it signs with
                  claims: Claims
                credential: {}

                """
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: try Self.document())
        #expect(
            result.text
                == Self.server + """
                    openID:                      # the provider
                      endSession: /logout
                      keys: /jwks            # its jwks_uri
                      algorithms: [RS256, PS256]        # what it signs with
                      claims: Claims
                    credential: {}

                    """)
        // Written, so no note proposes the block; none and HS256 are never written.
        #expect(!result.diagnostics.contains { $0.message.contains("sdk.yaml needs openID") }, "\(result.diagnostics)")
        #expect(!result.diagnostics.contains { $0.severity == .error })
        // Running again changes nothing.
        let once = try #require(result.text)
        #expect(DiscoveryImport.update(once, file: "sdk.yaml", with: try Self.document()).text == once)
    }

    /// Metadata never widens the algorithms a schema narrowed: a subset of the provider's is
    /// kept (with a note); what the provider dropped is dropped from it; only when nothing of the
    /// schema's choice is left is the provider's list written.
    @Test func narrowedAlgorithmsAreKept() throws {
        let keep = Self.server + "openID: { keys: /jwks, algorithms: [PS256], endSession: /logout }\n"
        let kept = DiscoveryImport.update(keep, file: "sdk.yaml", with: try Self.document())
        #expect(kept.text == keep)
        #expect(kept.diagnostics.contains { $0.message.hasPrefix("openID.algorithms accepts fewer algorithms than the provider lists") })
        let dropped = DiscoveryImport.update(
            Self.server + "openID: { keys: /jwks, algorithms: [PS256, ES256], endSession: /logout }\n", file: "sdk.yaml",
            with: try Self.document())
        #expect(dropped.text == Self.server + "openID: { keys: /jwks, algorithms: [PS256], endSession: /logout }\n")
    }

    /// A schema used with servers that sign differently: `replace` (the default) keeps what this
    /// server signs with and says what it dropped; `merge` keeps the schema's list and adds the
    /// server's, saying what it added.
    @Test func algorithmsOfASharedSchemaAreKeptWithMerge() throws {
        let shared = Self.server + "openID: { keys: /jwks, algorithms: [RS256, ES256], endSession: /logout }\n"
        let replaced = DiscoveryImport.update(shared, file: "sdk.yaml", with: try Self.document())
        #expect(replaced.text == Self.server + "openID: { keys: /jwks, algorithms: [RS256], endSession: /logout }\n")
        #expect(
            replaced.diagnostics.contains {
                $0.severity == .note && $0.message.hasPrefix("openID.algorithms: ES256 dropped, which this server does not sign with")
                    && $0.message.contains("--algorithms merge")
            }, "\(replaced.diagnostics)")

        let merged = DiscoveryImport.update(shared, file: "sdk.yaml", with: try Self.document(), algorithms: .merge)
        #expect(merged.text == Self.server + "openID: { keys: /jwks, algorithms: [RS256, ES256, PS256], endSession: /logout }\n")
        #expect(
            merged.diagnostics.contains {
                $0.severity == .note && $0.message.hasPrefix("openID.algorithms: PS256 added, which this server signs with")
            }, "\(merged.diagnostics)")
        #expect(!merged.diagnostics.contains { $0.message.contains("dropped") })
        // Merged once, the list is up to date: nothing is added or dropped again.
        let once = try #require(merged.text)
        let again = DiscoveryImport.update(once, file: "sdk.yaml", with: try Self.document(), algorithms: .merge)
        #expect(again.text == once)
        #expect(!again.diagnostics.contains { $0.message.hasPrefix("openID.algorithms") })
        // A schema that lists none gets the server's list under either policy.
        let none = Self.server + "openID: { keys: /jwks, endSession: /logout }\n"
        #expect(
            DiscoveryImport.update(none, file: "sdk.yaml", with: try Self.document(), algorithms: .merge).text
                == Self.server + "openID: { algorithms: [RS256, PS256], keys: /jwks, endSession: /logout }\n")
    }

    @Test func aFlowOpenIDGetsTheMissingKeys() throws {
        let text = Self.server + "openID: { keys: /jwks }\n"
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: try Self.document())
        #expect(result.text == Self.server + "openID: { algorithms: [RS256, PS256], endSession: /logout, keys: /jwks }\n")
    }

    @Test func valuesNamingTheSameURLOrSetAreLeftAsWritten() throws {
        // An absolute URL for the path discover would write, the algorithms in another order.
        let text =
            Self.server
            + "openID: { keys: \"https://idp.example.com/oauth2/jwks\", algorithms: [PS256, RS256], endSession: \"https://idp.example.com/oauth2/logout\" }\n"
        #expect(DiscoveryImport.update(text, file: "sdk.yaml", with: try Self.document()).text == text)
    }

    @Test(arguments: [
        ("openID:\n  keys: /jwks\n  algorithms:\n    - ES256\n", "sdk.yaml:6:3: error: algorithms is not a one-line flow sequence"),
        ("openID:\n  keys: *jwks\n", "sdk.yaml:5:3: error: keys is an alias"),
        ("openID:\n  keys: !!str /old\n", "sdk.yaml:5:3: error: keys is tagged (!)"),
        ("openID:\n  keys: /jwks\n  endSession: &end /old\n", "sdk.yaml:6:3: error: endSession is anchored (&)"),
        ("openID:\n  keys: /jwks\n  endSession: |\n    /old\n", "sdk.yaml:6:3: error: endSession is a block scalar"),
        ("openID: /jwks\n", "sdk.yaml:4:1: error: openID is not a mapping"),
    ])
    func anOpenIDValueItCannotEditSafelyIsRefused(block: String, expected: String) throws {
        let text = Self.server.replacingOccurrences(of: "sdk: Demo\n", with: "sdk: Demo\nx: &jwks /a\n") + block
        let result = DiscoveryImport.update(text, file: "sdk.yaml", with: try Self.document())
        #expect(result.text == nil)
        #expect(result.diagnostics.contains { "\($0)".hasPrefix(expected) }, "\(result.diagnostics)")
    }

    @Test func withoutAnOpenIDBlockItIsPrintedNotWritten() throws {
        let result = DiscoveryImport.update(Self.server, file: "sdk.yaml", with: try Self.document())
        #expect(result.text == Self.server)
        #expect(
            result.diagnostics.map(\.message).contains(
                "jwks_uri: /jwks: to validate ID tokens (OpenID Connect), sdk.yaml needs openID: { keys: /jwks, algorithms: [RS256, PS256], endSession: /logout } (not written)"
            ), "\(result.diagnostics)")
        // Without jwks_uri, the end-session endpoint alone is a note.
        let noKeys = DiscoveryImport.update(Self.server, file: "sdk.yaml", with: try Self.document(["jwks_uri": ""]))
        #expect(
            noKeys.diagnostics.map(\.message).contains(
                "end_session_endpoint: /logout: openID.endSession, written only into an openID block (not written)"))
    }

    @Test func whatTheSchemaCannotTakeIsNotWritten() throws {
        let text = Self.server + "openID:\n  keys: /jwks\n  algorithms: [RS256]\n  endSession: /logout\n"
        // An end-session endpoint on another origin would receive the ID token: not written.
        let elsewhere = DiscoveryImport.update(
            text, file: "sdk.yaml",
            with: try Self.document([
                "end_session_endpoint": #""https://logout.example.com/bye""#, "id_token_signing_alg_values_supported": #"["HS256"]"#,
            ]))
        #expect(elsewhere.text == text)
        let messages = elsewhere.diagnostics.filter { $0.severity == .warning }.map(\.message)
        #expect(messages.contains { $0.hasPrefix("end_session_endpoint https://logout.example.com/bye is not on the issuer's") })
        #expect(messages.contains { $0.hasPrefix("id_token_signing_alg_values_supported lists no algorithm Sesame accepts (HS256)") })
        // A document without end_session_endpoint keeps the schema's, with a warning.
        let gone = DiscoveryImport.update(text, file: "sdk.yaml", with: try Self.document(["end_session_endpoint": ""]))
        #expect(gone.text?.contains("  endSession: /logout\n") == true)
        #expect(gone.diagnostics.contains { $0.severity == .warning && $0.message.hasPrefix("the metadata has no end_session_endpoint") })
    }

    @Test func theReferenceSchemaIsUpToDateWithItsServersDocument() throws {
        // What the reference server publishes at the schema's port.
        let document = try #require(
            DiscoveryDocument.read(
                Data(
                    #"""
                    {"issuer":"http://127.0.0.1:8081","authorization_endpoint":"http://127.0.0.1:8081/oauth/authorize",
                     "token_endpoint":"http://127.0.0.1:8081/oauth/token","revocation_endpoint":"http://127.0.0.1:8081/oauth/revoke",
                     "jwks_uri":"http://127.0.0.1:8081/.well-known/jwks.json","end_session_endpoint":"http://127.0.0.1:8081/oauth/logout",
                     "id_token_signing_alg_values_supported":["RS256","ES256"],"authorization_response_iss_parameter_supported":true}
                    """#.utf8), file: "reference.json", expectedIssuer: "http://127.0.0.1:8081"
            ).0)
        let sdk = try #require(try ReferenceSchema.sources().first { $0.relativePath == "sdk.yaml" })
        let result = DiscoveryImport.update(sdk.text, file: "sdk.yaml", with: document)
        #expect(result.text == sdk.text, "\(result.diagnostics)")
    }
}
