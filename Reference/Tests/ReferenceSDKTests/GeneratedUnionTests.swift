import Foundation
import ReferenceSDK
import SesameTestSupport
import Testing

/// The `oneOf` model `Notice`, told apart by its `kind` discriminator.
@Suite struct GeneratedUnionTests {
    @Test func aTextNoticeRoundTrips() throws {
        let json = #"{"kind":"text","text":"Maintenance at noon"}"#
        let notice = try Wire.decode(Notice.self, json)
        #expect(notice == .text(TextNotice(text: "Maintenance at noon")))
        #expect(notice.kindValue == "text")
        #expect(try Wire.encode(notice) == json)
        #expect(try Wire.roundTrip(notice) == notice)
    }

    @Test func aLinkNoticeRoundTrips() throws {
        let json = #"{"kind":"link","title":"Release notes","url":"https://example.com/notes"}"#
        let notice = try Wire.decode(Notice.self, json)
        let url = try #require(URL(string: "https://example.com/notes"))
        #expect(notice == .link(LinkNotice(title: "Release notes", url: url)))
        #expect(notice.kindValue == "link")
        #expect(try Wire.encode(notice) == json)
        #expect(try Wire.roundTrip(notice) == notice)
    }

    @Test func eachVariantBuiltInCodeEncodesItsDiscriminator() throws {
        let url = try #require(URL(string: "https://example.com"))
        #expect(try Wire.json(Notice.text(TextNotice(text: "t")))["kind"] == .string("text"))
        #expect(try Wire.json(Notice.link(LinkNotice(title: "t", url: url)))["kind"] == .string("link"))
    }

    @Test func anUnknownKindIsKeptWithItsWholeValue() throws {
        let json = #"{"kind":"poll","question":"Tea or coffee?","options":["tea","coffee"],"closes":null}"#
        let notice = try Wire.decode(Notice.self, json)
        guard case .unknown(let kind, let value) = notice else {
            Issue.record("expected .unknown, got \(notice)")
            return
        }
        #expect(kind == "poll")
        #expect(notice.kindValue == "poll")
        #expect(
            value
                == .object([
                    "kind": .string("poll"), "question": .string("Tea or coffee?"),
                    "options": .array([.string("tea"), .string("coffee")]), "closes": .null,
                ]))
        #expect(try Wire.json(notice) == Wire.json(json))
        #expect(try Wire.roundTrip(notice) == notice)
    }

    @Test func aMissingDiscriminatorIsAnErrorAtItsPath() throws {
        let reason = try #require(Wire.decodingFailure(Notice.self, #"{"text":"no kind"}"#))
        #expect(reason == "$.kind: required property is missing")
    }

    @Test func aKnownKindWhoseBodyBreaksItsVariantIsAnErrorNotUnknown() throws {
        let reason = try #require(Wire.decodingFailure(Notice.self, #"{"kind":"link","title":"no url"}"#))
        #expect(reason == "$.url: required property is missing")
    }

    @Test func noticesInAnArrayKeepTheirOrderAndKinds() throws {
        let notices = try Wire.decode(
            [Notice].self, #"[{"kind":"text","text":"a"},{"kind":"banner"},{"kind":"link","title":"b","url":"https://b.example"}]"#)
        #expect(notices.map(\.kindValue) == ["text", "banner", "link"])
    }
}
