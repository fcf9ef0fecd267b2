import Foundation
@_spi(Generated) import ReferenceSDK
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// The generated operations (Operations.swift) over a recording performer: the requests
/// they build, the arguments they check before sending, and what a caller sees when the
/// response does not decode.
@Suite struct GeneratedOperationTests {
    static let noteJSON = #"{"createdAt":"2024-05-01T12:00:00Z","id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","pinned":false,"text":"milk"}"#

    @Test func meDecodesTheDetails() async throws {
        let performer = RecordingPerformer<ReferenceSDKSchema>(
            body: #"{"uid":"u1","provider":"guest","providerUID":"p1","isAnonymous":true}"#)
        let details = try await performer.me()
        #expect(details == AuthenticationDetails(uid: "u1", provider: .guest, providerUID: "p1", isAnonymous: true))
        let request = try #require(await performer.requests.first)
        #expect(request.description == ReferenceSDKSchema.Requests.me)
        #expect(request.description.method.rawValue == "GET")
        #expect(try request.resolvedPath() == "/me")
        #expect(request.body == nil)
    }

    @Test func aResponseBreakingItsSchemaIsASesameDecodingErrorNamingPathAndKeyword() async throws {
        let performer = RecordingPerformer<ReferenceSDKSchema>(body: #"{"uid":"","provider":"guest","providerUID":"p1"}"#)
        do {
            _ = try await performer.me()
            Issue.record("expected a failure")
        } catch SesameError.decoding(let operation, let reason) {
            #expect(operation == "me")
            #expect(reason == "$.uid: minLength: expected at least 1 characters, found 0")
        }
    }

    @Test func aViolationDeepInAnArrayResponseNamesItsIndex() async throws {
        let performer = RecordingPerformer<ReferenceSDKSchema>(
            body:
                #"[{"provider":"guest","providerUID":"p1","attachedOn":"2024-05-01"},{"provider":"sso","providerUID":"p2","attachedOn":"01/05/2024"}]"#
        )
        do {
            _ = try await performer.identities()
            Issue.record("expected a failure")
        } catch SesameError.decoding(let operation, let reason) {
            #expect(operation == "identities")
            #expect(reason.hasPrefix("$[1].attachedOn: format: "), "\(reason)")
        }
    }

    @Test func listNotesSendsItsQueryInOrderAndLeavesOutNil() async throws {
        let performer = RecordingPerformer<ReferenceSDKSchema>(body: "[\(Self.noteJSON)]")
        let notes = try await performer.listNotes(limit: 100, pinned: true)
        #expect(notes.map(\.text) == ["milk"])
        _ = try await performer.listNotes(limit: 1)
        _ = try await performer.listNotes(pinned: false)
        _ = try await performer.listNotes()
        let paths = try await performer.requests.map { try $0.resolvedPath() }
        #expect(paths == ["/notes?limit=100&pinned=true", "/notes?limit=1", "/notes?pinned=false", "/notes"])
    }

    @Test(arguments: [(0, "minimum"), (-5, "minimum"), (101, "maximum"), (Int.max, "maximum")])
    func listNotesRejectsALimitOutOfRangeBeforeSending(_ limit: Int, _ keyword: String) async throws {
        let performer = RecordingPerformer<ReferenceSDKSchema>(body: "[]")
        do {
            _ = try await performer.listNotes(limit: limit)
            Issue.record("expected a SchemaViolation")
        } catch let violation as SchemaViolation {
            #expect(violation.path == "$.limit")
            #expect(violation.keyword == keyword)
        }
        #expect(await performer.requests.isEmpty)
    }

    @Test func detachIdentityPutsTheProviderInThePathAndDecodesTheResult() async throws {
        let performer = RecordingPerformer<ReferenceSDKSchema>(
            body: #"{"accountDestroyed":false,"remaining":[{"provider":"guest","providerUID":"p1","attachedOn":"2024-05-01"}]}"#)
        let result = try await performer.detachIdentity(provider: .password)
        #expect(result.accountDestroyed == false)
        #expect(result.remaining.map(\.provider) == [.guest])
        _ = try await performer.detachIdentity(provider: .unknown("corp/sso id"))
        let requests = await performer.requests
        #expect(requests.map(\.pathParameters) == [["provider": "password"], ["provider": "corp/sso id"]])
        #expect(try requests.map { try $0.resolvedPath() } == ["/identities/password", "/identities/corp%2Fsso%20id"])
        #expect(requests[0].description.method.rawValue == "DELETE")
        #expect(requests[0].description.freshAuthentication == .seconds(300))
    }

    @Test func createNoteSendsTheBodyAsJSONAndDecodesTheNote() async throws {
        let performer = RecordingPerformer<ReferenceSDKSchema>(status: 201, body: Self.noteJSON)
        let note = try await performer.createNote(NewNote(text: "milk"))
        #expect(note.text == "milk")
        #expect(note.createdAt == Instants.noonUTC)
        let request = try #require(await performer.requests.first)
        #expect(request.body == .json(Wire.data(#"{"pinned":false,"text":"milk"}"#)))
        #expect(request.description.method.rawValue == "POST")
    }

    /// The operations' documentation promises a `SchemaViolation` when an argument breaks
    /// its schema; the body is an argument, and NewNote.text has minLength 1.
    @Test func createNoteRejectsABodyBreakingItsSchemaBeforeSending() async throws {
        let performer = RecordingPerformer<ReferenceSDKSchema>(status: 201, body: Self.noteJSON)
        do {
            _ = try await performer.createNote(NewNote(text: ""))
            Issue.record("expected a SchemaViolation")
        } catch let violation as SchemaViolation {
            #expect(violation.path == "$.text")
            #expect(violation.keyword == "minLength")
        }
        #expect(await performer.requests.isEmpty)
    }

    @Test func serverStatusNeedsNoCredentialAndKeepsExtraProperties() async throws {
        let performer = RecordingPerformer<ReferenceSDKSchema>(body: #"{"status":"ok","uptimeSeconds":3.5,"commit":"abc123"}"#)
        let status = try await performer.serverStatus()
        #expect(status.uptimeSeconds == 3.5)
        #expect(status.additionalProperties == ["commit": .string("abc123")])
        #expect(await performer.requests.first?.description.authenticated == false)
    }

    @Test func operationsWithoutAResponseIgnoreTheBody() async throws {
        let performer = RecordingPerformer<ReferenceSDKSchema>(status: 204, body: "")
        try await performer.logout()
        try await performer.destroyAccount()
        let names = await performer.requests.map(\.description.name)
        #expect(names == ["logout", "destroyAccount"])
        #expect(await performer.requests.last?.description.freshAuthentication == .seconds(300))
    }
}
