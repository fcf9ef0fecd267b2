import Foundation
import Testing

@testable import SesameGenerator

/// The grammar table (Generator/SesameGenerator/Grammar) is the one owner of the format's
/// keys: the translators read their mappings through it, and the published JSON Schema is
/// rendered from it. These tests keep the two in step and the committed schema fresh.
@Suite struct GrammarTests {
    /// A schema folder that reaches every mapping of `Grammar.all` at least once.
    static let everyMapping: [String: String?] = [
        "sdk.yaml": """
        sdk: TestSDK
        description: every mapping
        server: { baseURL: https://api.example.com }
        authorizationServer: { baseURL: https://idp.example.com, issuer: https://idp.example.com }
        openID: { keys: /jwks, algorithms: [RS256], clockSkew: 30s, claims: User }
        credential:
          token: { model: Token, accessToken: access_token, refreshToken: refresh_token, expiresIn: expires_in }
          apply: { header: Authorization, format: "Bearer {accessToken}" }
          refresh: { request: POST /token, fields: { refresh_token: "{refreshToken}" }, window: { maxRefreshes: 3, per: 10s } }
          rejected: { status: 401, wwwAuthenticate: { error: invalid_token }, body: { code: invalid_token } }
          details: me
          userID: id
        lifecycle:
          signOut: me
          revoke: { request: POST /revoke, fields: { token: "{refreshToken}" } }
        """,
        "auth.yaml": """
        methods:
          oauth:
            steps:
              - browser: { request: GET /authorize, redirectURI: "app://callback", openID: true }
                request: POST /token
                clientAuthentication: basic
                body: { code: "{code}", code_verifier: "{codeVerifier}", redirect_uri: "{redirectURI}" }
                response: Token
          device:
            steps:
              - device: { request: POST /device_authorization, server: authorization, parameters: { scope: profile } }
                request: POST /token
                encoding: form
                body: { grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: "{deviceCode}" }
                response: Token
        operations:
          me: { request: GET /me, response: User }
          search: { request: GET /search, parameters: { q: { in: query, schema: { type: string } } }, response: User }
        """,
        "errors.yaml": "envelope: { code: error }\nerrors: { invalid: { status: 400, category: client } }\n",
        "events.yaml": "stream: GET /events\nevents: { ping: { wireName: ping } }\n",
        "store.yaml": """
        persistence:
          1:
            Note: { id: { type: text, primaryKey: true } }
            indexes: { byID: { table: Note, columns: id } }
        cache: { 1: ~ }
        memory: { 1: ~ }
        """,
        "union.yaml": """
        Circle: { type: object, required: [kind], properties: { kind: { type: string } } }
        Shape:
          oneOf: [ { $ref: "#/Circle" } ]
          discriminator: { propertyName: kind }
        """,
    ]

    /// The mappings the model translator reads as plain entries (checked by
    /// `everySchemaKeywordIsReadByTheModelTranslator` instead).
    static let readAsEntries: Set<String> = [Grammar.schema.name]

    @Test func mappingNamesAreUnique() {
        let names = Grammar.all.map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        for mapping in Grammar.all {
            #expect(Set(mapping.keyNames).count == mapping.keyNames.count, "\(mapping.name) declares a key twice")
        }
    }

    /// Fails when the table lists a key no translator looks up, or a translator looks up a
    /// key its mapping's table does not list (which the reader would then refuse: a key the
    /// translator expects but no schema can use).
    @Test func theTranslatorsReadExactlyTheKeysOfTheTable() {
        let log = GrammarLog()
        let validation = GrammarLog.$current.withValue(log) { Fixture.validate(Self.everyMapping) }
        #expect(validation.diagnostics.isEmpty, "\(validation.diagnostics)")
        for mapping in Grammar.all where !Self.readAsEntries.contains(mapping.name) {
            #expect(log.reachedMappings.contains(mapping.name), "no translator read the mapping '\(mapping.name)'")
            let read = log.keysRead[mapping.name] ?? []
            let unread = Set(mapping.keyNames).subtracting(read)
            #expect(unread.isEmpty, "the table lists keys of '\(mapping.name)' that no translator reads: \(unread.sorted())")
        }
        #expect(log.undeclaredKeysRead.isEmpty, "translators read keys the table does not list: \(log.undeclaredKeysRead)")
    }

    /// The model translator reads a schema's entries directly: each keyword of the table must
    /// be named in its sources (`entries["minLength"]`, `case "anyOf":`), and each keyword it
    /// looks up must be in the table.
    @Test func everySchemaKeywordIsReadByTheModelTranslator() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Generator/SesameGenerator/Translate").standardizedFileURL
        // Its passes, each a file: ModelTranslator*.swift and ModelReferences.swift.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("ModelTranslator") || $0 == "ModelReferences.swift" || $0 == "InlineSchemas.swift" || $0 == "ModelTable.swift"
        }
        #expect(names.contains("ModelTranslator+Checks.swift"))
        let sources = try names.sorted().map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined()
        // Accepted and deliberately ignored: its meaning in the table says so.
        let ignored: Set<String> = ["$schema"]
        for keyword in Grammar.schema.keyNames + Grammar.schema.refused where !ignored.contains(keyword) {
            #expect(sources.contains("\"\(keyword)\""), "the model translator never names the keyword '\(keyword)'")
        }
        for mapping in Grammar.schema.keys where ignored.contains(mapping.name) {
            #expect(mapping.meaning.contains("ignored"))
        }
        let lookup = try Regex(#"[eE]ntries\["([^"]+)"\]"#)
        let declared = Set(Grammar.schema.keyNames)
        for match in sources.matches(of: lookup) {
            let key = String(match.output[1].substring ?? "")
            #expect(declared.contains(key), "the model translator reads '\(key)', which the table does not list")
        }
    }

    /// `make check` compares too; this catches a stale file in `swift test` as well.
    @Test func theCommittedJSONSchemaIsTheTablesRendering() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/sesame-format.schema.json").standardizedFileURL
        let committed = try String(contentsOf: path, encoding: .utf8)
        #expect(committed == FormatJSONSchema.render(), "docs/sesame-format.schema.json is stale: run `make grammar`")
    }

    @Test func theJSONSchemaClosesEveryMappingAndListsItsRequiredKeys() throws {
        let data = Data(FormatJSONSchema.render().utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let definitions = try #require(root["$defs"] as? [String: Any])
        let sdk = try #require(definitions["sdkFile"] as? [String: Any])
        #expect(sdk["required"] as? [String] == ["sdk", "server", "credential"])
        #expect(sdk["additionalProperties"] as? Bool == false)
        let properties = try #require(sdk["properties"] as? [String: Any])
        let credential = try #require(properties["credential"] as? [String: Any])
        #expect(credential["description"] as? String == Grammar.sdkFile.key("credential")?.description)
        #expect(credential["additionalProperties"] as? Bool == false)
        #expect(credential["required"] as? [String] == ["token", "rejected", "details"])
        #expect(FormatJSONSchema.render() == FormatJSONSchema.render())
        // Every mapping with declared keys says what it does with others: refuses them
        // (false), or gives them a form (a models file's models). `then` only adds to the
        // schema it is in, and `if` only tests it (credential: userID unless details: idToken).
        var open: [String] = []
        func walk(_ value: Any, _ path: String) {
            if let object = value as? [String: Any] {
                if object["properties"] is [String: Any], object["additionalProperties"] == nil { open.append(path) }
                for (key, member) in object where key != "then" && key != "if" { walk(member, path + "/" + key) }
            } else if let array = value as? [Any] {
                for (index, member) in array.enumerated() { walk(member, path + "/\(index)") }
            }
        }
        walk(root, "")
        #expect(open.isEmpty, "mappings that accept any key: \(open.sorted())")
    }

    /// The placeholders the translator allows in the credential's templates come from the
    /// table, as the JSON Schema's patterns do.
    @Test func templatePlaceholdersComeFromTheTable() {
        #expect(Grammar.apply.placeholders(of: "format") == ["accessToken"])
        #expect(Grammar.refresh.placeholders(of: "fields") == ["accessToken", "refreshToken"])
        #expect(Grammar.revoke.placeholders(of: "fields") == ["accessToken", "refreshToken"])
        let sdk = Fixture.sdk.replacingOccurrences(
            of: "rejected: { status: 401,", with: "apply: { format: \"Token {token}\" }\n  rejected: { status: 401,")
        #expect(
            Fixture.printed(["sdk.yaml": sdk]) == [
                "Schema/sdk.yaml:5:20: error: unknown placeholder '{token}'; here you may use {accessToken}",
                "Schema/sdk.yaml:5:20: error: the credential format must hold {accessToken}",
            ])
    }

    // MARK: Diagnostics driven by the table

    @Test func missingRequiredKeysAreReportedFromTheTable() {
        let printed = Fixture.printed([
            "errors.yaml": "errors:\n  e: { status: 400 }\n",
            "store.yaml": "persistence:\n  1:\n    Note: { id: { primaryKey: true } }\n",
        ])
        #expect(
            printed == [
                "Schema/errors.yaml:2:3: error: error 'e' needs a category",
                "Schema/store.yaml:3:13: error: column 'Note.id' needs a `type:` (text, integer, real, boolean, blob, date)",
            ])
    }

    @Test func unknownKeysOfNestedMappingsSuggestTheTablesKey() {
        let sdk = Fixture.sdk.replacingOccurrences(
            of: "rejected: { status: 401,", with: "refresh: { request: POST /token, window: { maxRefresh: 2 } }\n  rejected: { status: 401,"
        )
        #expect(
            Fixture.printed(["sdk.yaml": sdk]) == [
                "Schema/sdk.yaml:5:46: error: unknown key 'maxRefresh' in window; did you mean 'maxRefreshes'?"
            ])
    }

    /// Found by `theTranslatorsReadExactlyTheKeysOfTheTable`: a step's description was
    /// accepted and never read, so a list or a mapping there passed silently.
    @Test func aStepsDescriptionIsText() {
        let auth = Fixture.auth + "\nmethods:\n  guest: { steps: [ { description: [a], request: POST /guest, response: Token } ] }\n"
        #expect(Fixture.printed(["auth.yaml": auth]) == ["Schema/auth.yaml:4:36: error: description must be a string, found a list"])
    }

    @Test func aServerWithoutItsBaseURLSaysSoAtTheServer() {
        let sdk = Fixture.sdk.replacingOccurrences(of: "server: { baseURL: https://auth.example.com }", with: "server: {}")
        #expect(
            Fixture.printed(["sdk.yaml": sdk]) == ["Schema/sdk.yaml:2:9: error: server must declare its baseURL: { baseURL: https://… }"])
    }
}
