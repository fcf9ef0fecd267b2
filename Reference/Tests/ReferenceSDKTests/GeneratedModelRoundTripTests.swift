import Foundation
import ReferenceSDK
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// A value built with a generated memberwise initialiser, encoded then decoded, must give
/// the same value back: for every model of Reference/Sources/ReferenceSDK/Generated/Models.
@Suite struct GeneratedModelRoundTripTests {
    struct Sample: Sendable, CustomTestStringConvertible {
        let model: String
        let label: String
        let check: @Sendable () throws -> Void
        var testDescription: String { "\(model) \(label)" }

        static func of<Model: Codable & Equatable & Sendable>(_ value: Model, _ label: String) -> Sample {
            Sample(model: String(describing: Model.self), label: label) {
                // Plain coders, as an app uses them, and the runtime's sorted-keys encoder.
                let plain = try JSONDecoder().decode(Model.self, from: JSONEncoder().encode(value))
                #expect(plain == value, "plain coders")
                let sorted = try JSONDecoder().decode(Model.self, from: JSONEncoder.sesame.encode(value))
                #expect(sorted == value, "JSONEncoder.sesame")
                // Re-encoding the decoded value gives the same bytes: nothing drifts.
                #expect(try JSONEncoder.sesame.encode(sorted) == JSONEncoder.sesame.encode(value))
            }
        }
    }

    static let uuid = UUID(uuidString: "3F2C5B8E-9A41-4E07-B6D2-1C8F0A7E4D55")!
    static let url = URL(string: "https://example.com/notes?id=1#top")!
    static let leapDay = CalendarDate(year: 2024, month: 2, day: 29)!

    static let samples: [Sample] = [
        .of(TokenResponse(accessToken: "at", tokenType: "Bearer"), "minimal"),
        .of(TokenResponse(accessToken: "at", tokenType: "Bearer", expiresIn: 0, refreshToken: "rt", scope: "profile notes"), "full"),
        .of(
            OpenIDClaims(
                iss: "http://127.0.0.1:8081", sub: "u1", aud: "app", exp: 1_700_000_600, iat: 1_700_000_000, authTime: 1_699_999_990,
                sid: "s1"), "minimal"),
        .of(
            OpenIDClaims(
                iss: "http://127.0.0.1:8081", sub: "u1", aud: "app", exp: 1_700_000_600, iat: 1_700_000_000, authTime: 1_699_999_990,
                sid: "s1", acr: "urn:sesame:loa:mfa"), "with acr"),
        .of(UserInfo(sub: "u1"), "minimal"),
        .of(UserInfo(sub: "u1", name: "Ada", email: "ada@example.com"), "with profile and email"),
        .of(Challenge(challengeId: uuid, channel: .email, expiresAt: Instants.wholeSecond), "email"),
        .of(
            Challenge(challengeId: uuid, channel: .unknown("fax"), expiresAt: Instants.noonUTC.addingTimeInterval(0.5)),
            "unknown channel, half second"),
        .of(Provider.password, "known"),
        .of(Provider.unknown("sso"), "unknown"),
        .of(AuthenticationDetails(uid: "u1", provider: .guest, providerUID: "p1"), "minimal"),
        .of(
            AuthenticationDetails(
                uid: "u1", provider: .unknown("sso"), providerUID: "p1", displayName: "Ada “Countess” Lovelace 🧮",
                email: "ada@example.com", authenticatedAt: Instants.wholeSecond, expiresAt: Instants.noonUTC.addingTimeInterval(0.25),
                isAnonymous: true), "full"),
        .of(Identity(provider: .internal, providerUID: "ada@example.com", attachedOn: leapDay), "leap day"),
        .of(DetachResult(accountDestroyed: true), "no remaining"),
        .of(
            DetachResult(
                accountDestroyed: false,
                remaining: [
                    Identity(provider: .guest, providerUID: "g", attachedOn: leapDay),
                    Identity(provider: .unknown("x"), providerUID: "y", attachedOn: CalendarDate(year: 1, month: 1, day: 1)!),
                ]), "two remaining"),
        .of(NewNote(text: "milk"), "default pinned"),
        .of(NewNote(text: "line\nbreak \"quoted\" \\ é", pinned: true), "pinned, awkward text"),
        .of(Note(text: "milk", id: uuid, createdAt: Instants.wholeSecond), "minimal"),
        .of(Note(text: "milk", pinned: true, id: uuid, createdAt: Instants.noonUTC.addingTimeInterval(0.75)), "pinned"),
        .of(ServerStatus(), "minimal"),
        .of(
            ServerStatus(
                version: "1.2.3", uptimeSeconds: 0.5,
                additionalProperties: [
                    "region": .string("eu"), "replicas": .integer(3), "load": .number(0.75), "ready": .bool(true), "maintenance": .null,
                    "owners": .array([.string("a"), .object(["b": .integer(1)])]),
                ]), "full"),
        .of(RevocationReason.adminAction, "known"),
        .of(RevocationReason.unknown("fraud"), "unknown"),
        .of(SessionRevoked(reason: .signedOutElsewhere), "known reason"),
        .of(TextNotice(text: "hello"), "text"),
        .of(LinkNotice(title: "Notes", url: url), "link"),
        .of(Notice.text(TextNotice(text: "hello")), "text"),
        .of(Notice.link(LinkNotice(title: "Notes", url: url)), "link"),
        .of(Notice.unknown(kind: "poll", value: .object(["kind": .string("poll"), "options": .array([.string("a")])])), "unknown kind"),
        .of(Challenge.Channel.sms, "known"),
    ]

    @Test(arguments: samples)
    func memberwiseValueEncodesThenDecodesToAnEqualValue(_ sample: Sample) throws {
        try sample.check()
    }

    /// A model added to the schema must get a sample here.
    @Test func everyGeneratedModelHasASample() throws {
        let models = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ReferenceSDK/Generated/Models")
        // Each top-level model follows a `// MARK: - Name` line in the file that holds it.
        let marker = "// MARK: - "
        let declared = try FileManager.default.contentsOfDirectory(atPath: models.path)
            .filter { $0.hasSuffix(".swift") }
            .flatMap { file in
                try String(contentsOf: models.appendingPathComponent(file), encoding: .utf8)
                    .split(separator: "\n").filter { $0.hasPrefix(marker) }.map { String($0.dropFirst(marker.count)) }
            }
        #expect(declared.count >= 14, "found \(declared) in \(models.path)")
        let sampled = Set(Self.samples.map(\.model))
        #expect(
            Set(declared).subtracting(sampled).isEmpty, "models without a round-trip sample: \(Set(declared).subtracting(sampled).sorted())"
        )
    }

    /// Memberwise dates with a fraction that is not a whole number of milliseconds lose it on
    /// the wire (RFC 3339 text with milliseconds); dates with whole milliseconds must not.
    @Test func aDateWithWholeMillisecondsSurvivesTheRoundTrip() throws {
        let note = Note(text: "t", id: Self.uuid, createdAt: Date(timeIntervalSince1970: 1_700_000_000.123))
        #expect(try Wire.json(note)["createdAt"] == .string("2023-11-14T22:13:20.123Z"))
        let back = try Wire.roundTrip(note)
        #expect(abs(back.createdAt.timeIntervalSince(note.createdAt)) < 0.000_5)
    }
}
