import Foundation
import ReferenceSDK
import Testing

/// Decoding and encoding of the generated object models: defaults, optional and nullable
/// properties, dates, `allOf` and `additionalProperties`.
@Suite struct GeneratedModelDecodingTests {
    static let details = #""uid":"u1","provider":"guest","providerUID":"p1""#

    // MARK: Defaults

    @Test func missingIsAnonymousDefaultsToFalseAndIsEncoded() throws {
        let details = try Wire.decode(AuthenticationDetails.self, "{\(Self.details)}")
        #expect(details.isAnonymous == false)
        #expect(try Wire.json(details)["isAnonymous"] == .bool(false))
        let anonymous = try Wire.decode(AuthenticationDetails.self, #"{\#(Self.details),"isAnonymous":true}"#)
        #expect(anonymous.isAnonymous == true)
    }

    @Test func missingRemainingDefaultsToAnEmptyArray() throws {
        let result = try Wire.decode(DetachResult.self, #"{"accountDestroyed":true}"#)
        #expect(result == DetachResult(accountDestroyed: true, remaining: []))
        #expect(try Wire.encode(result) == #"{"accountDestroyed":true,"remaining":[]}"#)
    }

    @Test func missingPinnedDefaultsToFalse() throws {
        #expect(try Wire.decode(NewNote.self, #"{"text":"milk"}"#) == NewNote(text: "milk", pinned: false))
        #expect(try Wire.decode(NewNote.self, #"{"text":"milk","pinned":true}"#).pinned == true)
        #expect(try Wire.encode(NewNote(text: "milk")) == #"{"pinned":false,"text":"milk"}"#)
    }

    @Test func theMemberwiseInitialiserAppliesTheSchemaDefaults() {
        #expect(AuthenticationDetails(uid: "u1", provider: .guest, providerUID: "p1").isAnonymous == false)
        #expect(DetachResult(accountDestroyed: false).remaining == [])
        #expect(NewNote(text: "t").pinned == false)
    }

    // MARK: Required, optional, nullable

    @Test func aNullableOptionalPropertyIsNilWhenNullOrMissing() throws {
        let missing = try Wire.decode(AuthenticationDetails.self, "{\(Self.details)}")
        let null = try Wire.decode(AuthenticationDetails.self, #"{\#(Self.details),"displayName":null}"#)
        let present = try Wire.decode(AuthenticationDetails.self, #"{\#(Self.details),"displayName":"Ada"}"#)
        #expect(missing.displayName == nil)
        #expect(null.displayName == nil)
        #expect(present.displayName == "Ada")
        // Absent optional properties are left out rather than written as null.
        guard case .object(let object) = try Wire.json(missing) else {
            Issue.record("not an object")
            return
        }
        #expect(Set(object.keys) == ["uid", "provider", "providerUID", "isAnonymous"])
    }

    @Test func aMissingRequiredPropertyNamesItsPath() throws {
        let reason = try #require(Wire.decodingFailure(AuthenticationDetails.self, #"{"uid":"u1","provider":"guest"}"#, operation: "me"))
        #expect(reason == "$.providerUID: required property is missing")
        #expect(throws: DecodingError.self) { try Wire.decode(AuthenticationDetails.self, #"{"uid":"u1","provider":"guest"}"#) }
    }

    @Test func nullForARequiredNonNullablePropertyIsRejected() throws {
        let reason = try #require(Wire.decodingFailure(AuthenticationDetails.self, #"{"uid":null,"provider":"guest","providerUID":"p1"}"#))
        #expect(reason == "$.uid: expected String, found null")
        let challenge = try #require(
            Wire.decodingFailure(
                Challenge.self, #"{"challengeId":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","channel":"sms","expiresAt":null}"#))
        #expect(challenge.hasPrefix("$.expiresAt: "))
    }

    @Test func aWrongTypeNamesItsPath() throws {
        let reason = try #require(Wire.decodingFailure(DetachResult.self, #"{"accountDestroyed":"yes"}"#))
        #expect(reason == "$.accountDestroyed: expected Bool")
    }

    // MARK: date-time

    @Test(arguments: [
        ("2024-05-01T12:00:00Z", 1_714_564_800.0),
        ("2024-05-01T12:00:00.250Z", 1_714_564_800.25),
        ("2024-05-01T12:00:00.5Z", 1_714_564_800.5),
        ("2024-05-01T14:00:00+02:00", 1_714_564_800.0),
        ("2024-05-01T06:30:00-05:30", 1_714_564_800.0),
        ("2024-05-01T14:00:00.750+02:00", 1_714_564_800.75),
    ])
    func dateTimeDecodesWithAndWithoutFractionalSecondsAndWithAnOffset(_ text: String, _ seconds: Double) throws {
        let challenge = try Wire.decode(
            Challenge.self, #"{"challengeId":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","channel":"email","expiresAt":"\#(text)"}"#)
        #expect(abs(challenge.expiresAt.timeIntervalSince1970 - seconds) < 0.000_5)
    }

    @Test func dateTimeDecodesWhateverTheDecodersDateStrategy() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let note = try decoder.decode(
            Note.self, from: Wire.data(#"{"text":"t","id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","createdAt":"2024-05-01T12:00:00Z"}"#))
        #expect(note.createdAt == Instants.noonUTC)
    }

    @Test func dateTimeEncodesInUTCWithMillisecondsOnlyWhenThereIsAFraction() throws {
        let whole = Note(text: "t", id: UUID(), createdAt: Instants.noonUTC)
        #expect(try Wire.json(whole)["createdAt"] == .string("2024-05-01T12:00:00Z"))
        let fraction = Note(text: "t", id: UUID(), createdAt: Instants.noonUTC.addingTimeInterval(0.25))
        #expect(try Wire.json(fraction)["createdAt"] == .string("2024-05-01T12:00:00.250Z"))
        // An offset on the wire comes back in UTC: the instant is kept, not the offset.
        let offset = try Wire.decode(
            Note.self, #"{"text":"t","id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","createdAt":"2024-05-01T14:00:00+02:00"}"#)
        #expect(try Wire.json(offset)["createdAt"] == .string("2024-05-01T12:00:00Z"))
    }

    /// RFC 3339 §5.6: "T" and "Z" may be lower case.
    @Test func dateTimeAcceptsLowerCaseTAndZ() throws {
        let challenge = try Wire.decode(
            Challenge.self, #"{"challengeId":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","channel":"email","expiresAt":"2024-05-01t12:00:00z"}"#)
        #expect(challenge.expiresAt == Instants.noonUTC)
    }

    /// A date-time with milliseconds, decoded then encoded, comes back with the same text.
    @Test(arguments: ["2024-05-01T12:00:00.001Z", "2024-05-01T12:00:00.123Z", "2024-05-01T12:00:00.250Z", "2024-05-01T12:00:00.500Z"])
    func dateTimeWithMillisecondsReEncodesToTheSameText(_ text: String) throws {
        let note = try Wire.decode(Note.self, #"{"text":"t","id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","createdAt":"\#(text)"}"#)
        #expect(try Wire.json(note)["createdAt"] == .string(text))
        #expect(try Wire.roundTrip(note) == note)
    }

    /// The same for milliseconds whose binary value falls just below the decimal one: an
    /// encoder that truncated instead of rounding would write …00.002 back as …00.001.
    @Test(arguments: ["2024-05-01T12:00:00.002Z", "2024-05-01T12:00:00.005Z", "2024-05-01T12:00:00.010Z", "2024-05-01T12:00:00.999Z"])
    func dateTimeWithMillisecondsBelowTheirDecimalValueReEncodesToTheSameText(_ text: String) throws {
        let note = try Wire.decode(Note.self, #"{"text":"t","id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","createdAt":"\#(text)"}"#)
        #expect(try Wire.json(note)["createdAt"] == .string(text))
        #expect(try Wire.roundTrip(note) == note)
    }

    // MARK: date

    @Test func calendarDateDecodesAndEncodesAsYearMonthDay() throws {
        let identity = try Wire.decode(Identity.self, #"{"provider":"internal","providerUID":"p1","attachedOn":"2024-02-29"}"#)
        let expected = try #require(CalendarDate(year: 2024, month: 2, day: 29))
        #expect(identity.attachedOn == expected)
        #expect(identity.provider == .internal)
        #expect(try Wire.encode(identity) == #"{"attachedOn":"2024-02-29","provider":"internal","providerUID":"p1"}"#)
        #expect(CalendarDate(year: 2023, month: 2, day: 29) == nil)
        #expect(CalendarDate("0987-01-05")?.description == "0987-01-05")
    }

    @Test(arguments: ["2023-02-29", "2024-13-01", "2024-5-1", "24-05-01", "2024-05-01Z", "２０２４-05-01", ""])
    func calendarDateRejectsAnythingButAFullDate(_ text: String) throws {
        let violation = try #require(
            Wire.violation(decoding: Identity.self, #"{"provider":"guest","providerUID":"p1","attachedOn":"\#(text)"}"#))
        #expect(violation.path == "$.attachedOn")
        #expect(violation.keyword == "format")
    }

    // MARK: uuid, uri

    @Test func uuidDecodesInEitherCaseAndEncodesInLowerCase() throws {
        let challenge = try Wire.decode(
            Challenge.self, #"{"challengeId":"3F2C5B8E-9A41-4E07-B6D2-1C8F0A7E4D55","channel":"sms","expiresAt":"2024-05-01T12:00:00Z"}"#)
        #expect(challenge.challengeId == UUID(uuidString: "3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55"))
        #expect(try Wire.json(challenge)["challengeId"] == .string("3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55"))
    }

    @Test func uriKeepsItsText() throws {
        let text = "https://example.com/a/b?c=d&e=%20#f"
        let link = try Wire.decode(LinkNotice.self, #"{"kind":"link","title":"t","url":"\#(text)"}"#)
        #expect(link.url.absoluteString == text)
        #expect(try Wire.json(link)["url"] == .string(text))
    }

    // MARK: allOf

    @Test func allOfNoteHasEveryPropertyOfItsParts() throws {
        let note = try Wire.decode(
            Note.self, #"{"text":"milk","pinned":true,"id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","createdAt":"2024-05-01T12:00:00Z"}"#)
        #expect(note.text == "milk")
        #expect(note.pinned == true)
        #expect(note.id == UUID(uuidString: "3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55"))
        #expect(note.createdAt == Instants.noonUTC)
        // The NewNote default applies to Note too, and the Note part's required keys are required.
        #expect(
            try Wire.decode(Note.self, #"{"text":"milk","id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","createdAt":"2024-05-01T12:00:00Z"}"#)
                .pinned == false)
        #expect(
            Wire.decodingFailure(Note.self, #"{"text":"milk","createdAt":"2024-05-01T12:00:00Z"}"#) == "$.id: required property is missing")
        #expect(
            try Wire.encode(note)
                == #"{"createdAt":"2024-05-01T12:00:00Z","id":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","pinned":true,"text":"milk"}"#)
    }

    // MARK: additionalProperties

    @Test func serverStatusKeepsUndeclaredPropertiesAndReEncodesThem() throws {
        let json = #"{"status":"ok","version":"1.2","uptimeSeconds":12.5,"region":"eu-west","build":{"number":42,"tags":["a",null,true]}}"#
        let status = try Wire.decode(ServerStatus.self, json)
        #expect(status.status == "ok")
        #expect(status.version == "1.2")
        #expect(status.uptimeSeconds == 12.5)
        #expect(
            status.additionalProperties == [
                "region": .string("eu-west"),
                "build": .object(["number": .integer(42), "tags": .array([.string("a"), .null, .bool(true)])]),
            ])
        #expect(try Wire.json(status) == Wire.json(json))
        #expect(try Wire.roundTrip(status) == status)
    }

    @Test func serverStatusWithOnlyDeclaredPropertiesKeepsNothingExtra() throws {
        let status = try Wire.decode(ServerStatus.self, #"{"status":"ok"}"#)
        #expect(status.additionalProperties.isEmpty)
        #expect(try Wire.encode(status) == #"{"status":"ok"}"#)
    }

    /// An undeclared property spelled like a declared one must not replace the declared
    /// property on the wire.
    @Test func anAdditionalPropertyCannotOverwriteADeclaredOne() throws {
        let status = ServerStatus(
            version: "1.2", additionalProperties: ["status": .string("down"), "version": .integer(9), "extra": .bool(true)])
        let encoded = try Wire.json(status)
        #expect(encoded["status"] == .string("ok"))
        #expect(encoded["version"] == .string("1.2"))
        #expect(encoded["extra"] == .bool(true))
    }
}
