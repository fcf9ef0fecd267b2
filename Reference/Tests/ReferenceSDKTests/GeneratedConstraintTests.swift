import Foundation
import ReferenceSDK
import Testing

/// One constraint of Schema/models.yaml broken on the wire, and the violation it must give.
struct ConstraintCase: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let path: String
    let keyword: String
    /// The violation a plain `JSONDecoder` reports.
    let plain: @Sendable () -> SchemaViolation?
    /// The reason of the `SesameError.decoding` a generated operation reports.
    let response: @Sendable () -> String?

    static func decoding<Model: Decodable>(
        _ type: Model.Type, _ json: String, path: String, keyword: String, _ label: String
    ) -> ConstraintCase {
        ConstraintCase(
            testDescription: "\(Model.self) \(label)", path: path, keyword: keyword,
            plain: { Wire.violation(decoding: type, json) },
            response: { Wire.decodingFailure(type, json) })
    }
}

@Suite struct GeneratedConstraintTests {
    static let details = #""uid":"u1","provider":"guest","providerUID":"p1""#
    static let challenge = #""challengeId":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","channel":"email","expiresAt":"2024-05-01T12:00:00Z""#
    static let note = #""text":"hi","id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","createdAt":"2024-05-01T12:00:00Z""#
    static let identity = #"{"provider":"guest","providerUID":"p1","attachedOn":"2024-02-29"}"#

    static let cases: [ConstraintCase] = [
        .decoding(
            AuthenticationDetails.self, #"{"uid":"","provider":"guest","providerUID":"p1"}"#,
            path: "$.uid", keyword: "minLength", "uid empty"),
        .decoding(
            AuthenticationDetails.self, #"{\#(details),"displayName":"\#(String(repeating: "é", count: 201))"}"#,
            path: "$.displayName", keyword: "maxLength", "displayName of 201 characters"),
        .decoding(NewNote.self, #"{"text":""}"#, path: "$.text", keyword: "minLength", "text empty"),
        .decoding(
            NewNote.self, #"{"text":"\#(String(repeating: "x", count: 10_001))"}"#,
            path: "$.text", keyword: "maxLength", "text of 10001 characters"),
        .decoding(
            Note.self, #"{"text":"","id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","createdAt":"2024-05-01T12:00:00Z"}"#,
            path: "$.text", keyword: "minLength", "text empty (constraint from allOf)"),
        .decoding(
            TokenResponse.self, #"{"access_token":"at","token_type":"Bearer","expires_in":-1}"#,
            path: "$.expires_in", keyword: "minimum", "expires_in -1"),
        .decoding(
            ServerStatus.self, #"{"status":"ok","uptimeSeconds":0}"#,
            path: "$.uptimeSeconds", keyword: "exclusiveMinimum", "uptimeSeconds 0"),
        .decoding(
            ServerStatus.self, #"{"status":"ok","uptimeSeconds":-3.5}"#,
            path: "$.uptimeSeconds", keyword: "exclusiveMinimum", "uptimeSeconds -3.5"),
        .decoding(ServerStatus.self, #"{"status":"down"}"#, path: "$.status", keyword: "const", "status down"),
        .decoding(TextNotice.self, #"{"kind":"link","text":"hello"}"#, path: "$.kind", keyword: "const", "kind link"),
        .decoding(
            LinkNotice.self, #"{"kind":"text","title":"t","url":"https://example.com"}"#,
            path: "$.kind", keyword: "const", "kind text"),
        .decoding(
            AuthenticationDetails.self, #"{\#(details),"email":"nobody"}"#,
            path: "$.email", keyword: "format", "email without @"),
        .decoding(
            AuthenticationDetails.self, #"{\#(details),"email":"a b@example.com"}"#,
            path: "$.email", keyword: "format", "email with a space"),
        .decoding(
            Challenge.self, #"{"challengeId":"not-a-uuid","channel":"email","expiresAt":"2024-05-01T12:00:00Z"}"#,
            path: "$.challengeId", keyword: "format", "challengeId not a uuid"),
        .decoding(
            Note.self, #"{"text":"hi","id":"123","createdAt":"2024-05-01T12:00:00Z"}"#,
            path: "$.id", keyword: "format", "id not a uuid"),
        .decoding(
            LinkNotice.self, #"{"kind":"link","title":"t","url":"relative/path"}"#,
            path: "$.url", keyword: "format", "url without a scheme"),
        .decoding(
            Identity.self, #"{"provider":"guest","providerUID":"p1","attachedOn":"2024-02-30"}"#,
            path: "$.attachedOn", keyword: "format", "attachedOn 30 February"),
        .decoding(
            Identity.self, #"{"provider":"guest","providerUID":"p1","attachedOn":"2024-05-01T12:00:00Z"}"#,
            path: "$.attachedOn", keyword: "format", "attachedOn a date-time"),
        .decoding(
            Challenge.self, #"{"challengeId":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","channel":"sms","expiresAt":"yesterday"}"#,
            path: "$.expiresAt", keyword: "format", "expiresAt not a date-time"),
        .decoding(
            Challenge.self, #"{"challengeId":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","channel":"sms","expiresAt":"2024-05-01T12:00:00"}"#,
            path: "$.expiresAt", keyword: "format", "expiresAt without a time zone"),
        .decoding(
            AuthenticationDetails.self, #"{\#(details),"authenticatedAt":"2024-05-01"}"#,
            path: "$.authenticatedAt", keyword: "format", "optional authenticatedAt a date"),
        .decoding(
            DetachResult.self,
            #"{"accountDestroyed":false,"remaining":[\#(identity),{"provider":"guest","providerUID":"p2","attachedOn":"May 1st"}]}"#,
            path: "$.remaining[1].attachedOn", keyword: "format", "nested in an array"),
        .decoding(
            [Note].self, #"[{\#(note)},{"text":"hi","id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","createdAt":"noon"}]"#,
            path: "$[1].createdAt", keyword: "format", "in a top-level array"),
        .decoding(
            Notice.self, #"{"kind":"link","title":"t","url":"no scheme"}"#,
            path: "$.url", keyword: "format", "inside a oneOf variant"),
    ]

    @Test(arguments: cases)
    func plainDecoderReportsTheViolationAtItsPath(_ testCase: ConstraintCase) throws {
        let violation = try #require(testCase.plain())
        #expect(violation.path == testCase.path)
        #expect(violation.keyword == testCase.keyword)
    }

    @Test(arguments: cases)
    func operationResponseWrapsTheViolationInSesameErrorDecoding(_ testCase: ConstraintCase) throws {
        let reason = try #require(testCase.response())
        #expect(reason.hasPrefix("\(testCase.path): \(testCase.keyword): "), "\(reason)")
    }

    // MARK: Boundaries: the value at each limit is accepted

    /// `maxLength: 200` counts code points: 101 `e` + U+0301 (101 characters) are 202, and
    /// 100 flags (100 characters) are 200.
    @Test func lengthsAreCountedInCodePoints() throws {
        let decomposed = String(repeating: "e\u{301}", count: 101)
        let violation = Wire.violation(decoding: AuthenticationDetails.self, #"{\#(Self.details),"displayName":"\#(decomposed)"}"#)
        #expect(violation?.keyword == "maxLength")
        #expect(violation?.message == "expected at most 200 characters, found 202")
        let flags = String(repeating: "🇫🇷", count: 100)
        let named = try Wire.decode(AuthenticationDetails.self, #"{\#(Self.details),"displayName":"\#(flags)"}"#)
        #expect(named.displayName == flags)
        #expect(Wire.violation(decoding: AuthenticationDetails.self, #"{\#(Self.details),"displayName":"\#(flags)🇫🇷"}"#) != nil)
    }

    /// Servers in use send `null` for the token response's optional fields (RFC 6749 says to
    /// leave them out); the schema declares them nullable, so the model decodes them as nil,
    /// as the runtime's own token reading does.
    @Test func tokenResponseAcceptsNullOptionalFields() throws {
        let token = try Wire.decode(
            TokenResponse.self, #"{"access_token":"at","token_type":"Bearer","expires_in":null,"refresh_token":null,"scope":null}"#)
        #expect(token.expiresIn == nil && token.refreshToken == nil && token.scope == nil)
        // Still a type error for a value of another type.
        #expect(throws: DecodingError.self) {
            try Wire.decode(TokenResponse.self, #"{"access_token":"at","token_type":"Bearer","scope":3}"#)
        }
    }

    @Test func valuesAtTheLimitsDecode() throws {
        let shortest = try Wire.decode(AuthenticationDetails.self, #"{"uid":"u","provider":"guest","providerUID":"p1"}"#)
        #expect(shortest.uid == "u")
        let longest = String(repeating: "é", count: 200)
        let named = try Wire.decode(AuthenticationDetails.self, #"{\#(Self.details),"displayName":"\#(longest)"}"#)
        #expect(named.displayName == longest)
        let token = try Wire.decode(TokenResponse.self, #"{"access_token":"at","token_type":"Bearer","expires_in":0}"#)
        #expect(token.expiresIn == 0)
        let status = try Wire.decode(ServerStatus.self, #"{"status":"ok","uptimeSeconds":0.001}"#)
        #expect(status.uptimeSeconds == 0.001)
        let note = try Wire.decode(NewNote.self, #"{"text":"\#(String(repeating: "x", count: 10_000))"}"#)
        #expect(note.text.count == 10_000)
        let leapDay = try Wire.decode(Identity.self, Self.identity)
        #expect(leapDay.attachedOn == CalendarDate(year: 2024, month: 2, day: 29))
    }

    /// JSON Schema counts code points, neither UTF-8 bytes nor characters.
    @Test func lengthsCountScalarsNotBytesOrCharacters() throws {
        // 28 family emoji: 28 characters, 196 scalars, 700 UTF-8 bytes.
        let family = String(repeating: "👨‍👩‍👧‍👦", count: 28)
        let details = try Wire.decode(AuthenticationDetails.self, #"{\#(Self.details),"displayName":"\#(family)"}"#)
        #expect(details.displayName == family)
        // 29 of them: 203 scalars, over the 200 of `maxLength`.
        let longer = Wire.violation(decoding: AuthenticationDetails.self, #"{\#(Self.details),"displayName":"\#(family)👨‍👩‍👧‍👦"}"#)
        #expect(longer?.message == "expected at most 200 characters, found 203")
    }

    @Test func aViolationNamesTheLimitNotTheValue() throws {
        let secret = "hunter2-\(String(repeating: "s", count: 300))"
        let violation = try #require(
            Wire.violation(decoding: AuthenticationDetails.self, #"{\#(Self.details),"displayName":"\#(secret)"}"#))
        #expect(violation.message == "expected at most 200 characters, found 308")
        #expect(!violation.description.contains("hunter2"))
    }
}
