import Testing
@testable import SesameGenerator

/// A table of schema pairs, each with the exact findings `sesame diff` must report.
@Suite struct SchemaDiffTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var old: [String: String?] = [:]
        var new: [String: String?]
        /// `grade kind @ file:line:column`.
        var expected: [String]
        var testDescription: String { name }
    }

    static let models = Fixture.models
    static let auth = Fixture.auth

    static let cases: [Case] = [
        Case(name: "no change", new: [:], expected: []),
        Case(
            name: "operation removed", old: ["auth.yaml": auth + "\n  notes: { request: GET /notes }\n"], new: [:],
            expected: ["breaking operation.removed @ Schema/auth.yaml:3:3"]),
        Case(
            name: "operation added", new: ["auth.yaml": auth + "\n  notes: { request: GET /notes }\n"],
            expected: ["compatible operation.added @ Schema/auth.yaml:3:3"]),
        Case(
            name: "operation path changed", old: ["auth.yaml": auth + "\n  notes: { request: GET /notes }\n"],
            new: ["auth.yaml": auth + "\n  notes: { request: GET /v2/notes }\n"],
            expected: ["breaking operation.request-changed @ Schema/auth.yaml:3:21"]),
        Case(
            name: "new required parameter", old: ["auth.yaml": auth + "\n  notes: { request: GET /notes }\n"],
            new: [
                "auth.yaml": auth
                    + "\n  notes: { request: GET /notes, parameters: { q: { in: query, required: true, schema: { type: string } } } }\n"
            ],
            expected: ["breaking parameter.added-required @ Schema/auth.yaml:3:47"]),
        Case(
            name: "new optional parameter", old: ["auth.yaml": auth + "\n  notes: { request: GET /notes }\n"],
            new: ["auth.yaml": auth + "\n  notes: { request: GET /notes, parameters: { q: { in: query, schema: { type: string } } } }\n"],
            expected: ["compatible parameter.added @ Schema/auth.yaml:3:47"]),
        Case(
            name: "model removed", old: ["models.yaml": models + "\nTag: { type: string }\n"], new: [:],
            expected: ["breaking model.removed @ Schema/models.yaml:13:1"]),
        Case(
            name: "property removed from a response model", old: ["models.yaml": models + "\n    name: { type: string }\n"], new: [:],
            expected: ["breaking property.removed @ Schema/models.yaml:8:1"]),
        Case(
            name: "property type changed",
            new: ["models.yaml": models.replacingOccurrences(of: "expires_in: { type: integer }", with: "expires_in: { type: number }")],
            expected: ["breaking property.type-changed @ Schema/models.yaml:7:5"]),
        Case(
            name: "optional property became required",
            new: ["models.yaml": models.replacingOccurrences(of: "required: [access_token]", with: "required: [access_token, expires_in]")],
            expected: ["breaking property.now-required @ Schema/models.yaml:7:5"]),
        Case(
            name: "required property became optional",
            new: ["models.yaml": models.replacingOccurrences(of: "required: [id]", with: "required: []")],
            expected: ["breaking property.now-optional @ Schema/models.yaml:12:5"]),
        Case(
            name: "optional property added", new: ["models.yaml": models + "\n    name: { type: string }\n"],
            expected: ["compatible property.added @ Schema/models.yaml:13:5"]),
        Case(
            name: "enum value added is compatible because unknown values are kept",
            old: ["models.yaml": models + "\nKind: { type: string, enum: [a, b] }\n"],
            new: ["models.yaml": models + "\nKind: { type: string, enum: [a, b, c] }\n"],
            expected: ["compatible enum.value-added @ Schema/models.yaml:13:36"]),
        Case(
            name: "enum value removed",
            old: ["models.yaml": models + "\nKind: { type: string, enum: [a, b] }\n"],
            new: ["models.yaml": models + "\nKind: { type: string, enum: [a] }\n"],
            expected: ["breaking enum.value-removed @ Schema/models.yaml:13:1"]),
        Case(
            name: "a plain model given a check becomes a struct: typealias to struct",
            old: ["models.yaml": models + "\nHandle: { type: string }\n"],
            new: ["models.yaml": models + "\nHandle: { type: string, maxLength: 40 }\n"],
            expected: ["breaking model.type-changed @ Schema/models.yaml:13:1"]),
        Case(
            name: "a checked model losing its check becomes a typealias: struct to typealias",
            old: ["models.yaml": models + "\nHandle: { type: string, maxLength: 40 }\n"],
            new: ["models.yaml": models + "\nHandle: { type: string }\n"],
            expected: ["breaking model.type-changed @ Schema/models.yaml:13:1"]),
        Case(
            name: "a checked model changing its check stays a struct",
            old: ["models.yaml": models + "\nHandle: { type: string, maxLength: 40 }\n"],
            new: ["models.yaml": models + "\nHandle: { type: string, maxLength: 80 }\n"],
            expected: ["warning model.constraints-changed @ Schema/models.yaml:13:1"]),
        Case(
            name: "error code removed and added",
            old: ["errors.yaml": "errors:\n  gone: { status: 400, category: client }\n"],
            new: ["errors.yaml": "errors:\n  fresh: { status: 429, category: transient }\n"],
            expected: ["compatible error.added @ Schema/errors.yaml:2:3", "breaking error.removed @ Schema/errors.yaml:2:3"]),
        Case(
            name: "event wire name changed",
            old: ["events.yaml": "events:\n  revoked: { wireName: session.revoked }\n"],
            new: ["events.yaml": "events:\n  revoked: { wireName: session.ended }\n"],
            expected: ["breaking event.wire-name-changed @ Schema/events.yaml:2:3"]),
        Case(
            name: "credential rule changed",
            new: ["sdk.yaml": Fixture.sdk.replacingOccurrences(of: "error: invalid_token", with: "error: expired_token")],
            expected: ["breaking credential.rejection-changed @ Schema/sdk.yaml:4:3"]),
        Case(
            name: "store version added",
            old: ["store.yaml": "persistence:\n  1: { Note: { id: { type: text, primaryKey: true } } }\n"],
            new: [
                "store.yaml":
                    "persistence:\n  1: { Note: { id: { type: text, primaryKey: true } } }\n  2: { Note: { id: { type: text, primaryKey: true }, body: { type: text, default: \"\" } } }\n"
            ],
            expected: ["compatible store.version-added @ Schema/store.yaml:3:3"]),
        Case(
            name: "released store version edited",
            old: ["store.yaml": "persistence:\n  1: { Note: { id: { type: text, primaryKey: true } } }\n"],
            new: [
                "store.yaml":
                    "persistence:\n  1: { Note: { id: { type: text, primaryKey: true }, body: { type: text, nullable: true } } }\n"
            ],
            expected: ["breaking store.version-changed @ Schema/store.yaml:2:3"]),
        Case(
            name: "authorization server added: the refresh moves, revocation added",
            old: ["sdk.yaml": ServerAndBrowserTests.oneServer], new: ["sdk.yaml": ServerAndBrowserTests.twoServers],
            expected: [
                "warning server.authorization-url-changed @ Schema/sdk.yaml:5:3",
                "warning credential.refresh-server-changed @ Schema/sdk.yaml:7:14",
                "compatible lifecycle.revocation-added @ Schema/sdk.yaml:16:5",
            ]),
        Case(
            name: "an operation moves to the authorization server",
            old: ["sdk.yaml": ServerAndBrowserTests.twoServers],
            new: [
                "sdk.yaml": ServerAndBrowserTests.twoServers,
                "auth.yaml": "operations:\n  me: { request: GET /me, server: authorization, authenticated: true, response: User }\n",
            ],
            expected: ["warning operation.server-changed @ Schema/auth.yaml:2:18"]),
        Case(
            name: "a browser part added to an existing step",
            old: ["auth.yaml": auth + "\nmethods:\n  sso: { steps: [ { request: POST /t, body: { code: x }, response: Token } ] }\n"],
            new: [
                "auth.yaml": auth
                    + "\nmethods:\n  sso: { steps: [ { browser: { request: GET /a, redirectURI: \"app:/cb\" }, request: POST /t, body: { c: \"{code}\", v: \"{codeVerifier}\", r: \"{redirectURI}\" }, response: Token } ] }\n"
            ],
            expected: ["breaking step.browser-changed @ Schema/auth.yaml:4:21"]),
        Case(
            name: "method removed",
            old: ["auth.yaml": auth + "\nmethods:\n  guest: { steps: [ { request: POST /g, response: Token } ] }\n"], new: [:],
            expected: ["breaking method.removed @ Schema/auth.yaml:4:3"]),
    ]

    @Test(arguments: cases)
    func findings(_ item: Case) throws {
        let old = try #require(
            Fixture.validate(item.old).ir, "old schema of \(item.name) is invalid: \(Fixture.validate(item.old).diagnostics)")
        let new = try #require(
            Fixture.validate(item.new).ir, "new schema of \(item.name) is invalid: \(Fixture.validate(item.new).diagnostics)")
        let changes = SchemaDiff.compare(old: old, new: new)
        let rendered = changes.map { "\($0.grade.rawValue) \($0.kind) @ \($0.location.map(\.description) ?? "-")" }
        #expect(rendered == item.expected)
    }

    /// `TypeRendering.wrapsAlias` decides the Swift shape; the message says which way it went.
    @Test func aModelThatChangesShapeSaysWhichWay() throws {
        let plain = try #require(Fixture.validate(["models.yaml": Self.models + "\nHandle: { type: string }\n"]).ir)
        let checked = try #require(
            Fixture.validate(["models.yaml": Self.models + "\nHandle: { type: string, maxLength: 40 }\n"]).ir)
        let toStruct = SchemaDiff.compare(old: plain, new: checked).map(\.message)
        #expect(
            toStruct == [
                "model 'Handle' became a struct wrapping its value; app code that uses it as its value's type no longer compiles"
            ])
        let toAlias = SchemaDiff.compare(old: checked, new: plain).map(\.message)
        #expect(
            toAlias == [
                "model 'Handle' became a typealias of its value's type; app code that calls 'Handle(rawValue:)' or reads '.rawValue' no longer compiles"
            ])
    }

    @Test func breakingChangesMakeTheCommandFail() throws {
        // The grade order drives `--fail-on`.
        #expect(SchemaChange.Grade.breaking > .warning)
        #expect(SchemaChange.Grade.warning > .compatible)
    }
}
