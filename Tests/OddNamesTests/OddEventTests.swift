import Foundation
import OddNamesSDK
@_spi(Generated) import Sesame
import Testing

/// `OddNamesSDKEvent`: events named with keywords, wire names with odd text; each wire name
/// selects its case and comes back exactly, any other is kept as `unknown`.
@Suite struct OddEventTests {
    static let payloadless: [(wireName: String, event: OddNamesSDKEvent)] = [
        ("back\\slash", .selfEvent), ("*/", .unknownEvent), ("line\nbreak", .descriptionEvent),
        ("café", .wireNameEvent), ("\u{2028}", .`_`),
    ]

    @Test func eachWireNameIsItsOwnCaseAndComesBackScalarForScalar() {
        for (wireName, event) in Self.payloadless {
            let decoded = OddNamesSDKEvent(wireName: wireName, data: Data())
            #expect(decoded == event, "\(wireName.debugDescription)")
            #expect(WireKeys.scalars(decoded.wireName) == WireKeys.scalars(wireName))
        }
    }

    @Test func payloadsDecodeUnderTheirWireNames() throws {
        let odd = OddNamesSDKEvent(wireName: "quote\"d", data: try WireKeys.object(["user\"id": "u", "quote\"d": "q"]))
        #expect(odd == .class(Odd(userId: "u", quoteD: "q")))
        #expect(odd.wireName == "quote\"d")
        let initEvent = OddNamesSDKEvent(wireName: "init", data: try WireKeys.object(["#if": 3]))
        #expect(initEvent == .initEvent(InitPayload(if: 3)))
    }

    @Test(arguments: ["Quote\"d", "class", "self", "unknown", "description", "wireName", "_", "\u{2029}", "cafe\u{301}x"])
    func anyOtherWireNameIsKeptWithItsBytes(_ wireName: String) {
        let data = Data(#"{"*/":1}"#.utf8)
        let event = OddNamesSDKEvent(wireName: wireName, data: data)
        #expect(event == .unknown(wireName: wireName, data: data))
        #expect(WireKeys.scalars(event.wireName) == WireKeys.scalars(wireName))
    }

    @Test func theInvalidatingEventIsNamedByItsWireName() {
        #expect(OddNamesSDKSchema.description.events.invalidating == ["quote\"d"])
        #expect(OddNamesSDKSchema.description.events.stream?.path == "/events/\"stream\"")
    }
}
