import Foundation
@_spi(Generated) import ReferenceSDK
import SesameTestSupport
import Testing
@_spi(Generated) import SesameDescription

/// `ReferenceSDKEvent`, generated from Schema/events.yaml: decoded by wire name, never dropped.
@Suite struct GeneratedEventTests {
    @Test func sessionRevokedDecodesItsPayload() {
        let event = ReferenceSDKEvent(wireName: "session.revoked", data: Wire.data(#"{"reason":"passwordChanged"}"#))
        #expect(event == .sessionRevoked(SessionRevoked(reason: .passwordChanged)))
        #expect(event.wireName == "session.revoked")
        #expect(event.description == "session.revoked")
    }

    @Test func profileUpdatedDecodesTheDetails() {
        let data = Wire.data(
            #"{"uid":"u1","provider":"password","providerUID":"ada","displayName":"Ada","expiresAt":"2024-05-01T12:00:00Z"}"#)
        let event = ReferenceSDKEvent(wireName: "profile.updated", data: data)
        let expected = AuthenticationDetails(
            uid: "u1", provider: .password, providerUID: "ada", displayName: "Ada", expiresAt: Instants.noonUTC)
        #expect(event == .profileUpdated(expected))
        #expect(event.wireName == "profile.updated")
    }

    @Test func noticeDecodesEachVariantAndKeepsAnUnknownKind() throws {
        #expect(
            ReferenceSDKEvent(wireName: "notice", data: Wire.data(#"{"kind":"text","text":"hi"}"#))
                == .notice(.text(TextNotice(text: "hi"))))
        let url = try #require(URL(string: "https://example.com"))
        #expect(
            ReferenceSDKEvent(wireName: "notice", data: Wire.data(#"{"kind":"link","title":"t","url":"https://example.com"}"#))
                == .notice(.link(LinkNotice(title: "t", url: url))))
        let future = ReferenceSDKEvent(wireName: "notice", data: Wire.data(#"{"kind":"poll","q":"?"}"#))
        #expect(future == .notice(.unknown(kind: "poll", value: .object(["kind": .string("poll"), "q": .string("?")]))))
    }

    @Test func anUnknownWireNameKeepsItsNameAndBytes() {
        let data = Wire.data(#"{"anything":[1,2,3]}"#)
        let event = ReferenceSDKEvent(wireName: "billing.updated", data: data)
        #expect(event == .unknown(wireName: "billing.updated", data: data))
        #expect(event.wireName == "billing.updated")
    }

    @Test func theSchemaNameIsNotTheWireName() {
        // events.yaml names the event `sessionRevoked`; on the wire it is `session.revoked`.
        let data = Wire.data(#"{"reason":"adminAction"}"#)
        #expect(ReferenceSDKEvent(wireName: "sessionRevoked", data: data) == .unknown(wireName: "sessionRevoked", data: data))
        #expect(ReferenceSDKEvent(wireName: "Session.Revoked", data: data) == .unknown(wireName: "Session.Revoked", data: data))
    }

    @Test(arguments: [
        ("session.revoked", #"{"reason":42}"#),
        ("session.revoked", #"{}"#),
        ("session.revoked", #"not json"#),
        ("session.revoked", ""),
        ("profile.updated", #"{"uid":"","provider":"guest","providerUID":"p1"}"#),
        ("profile.updated", #"{"uid":"u1","provider":"guest","providerUID":"p1","email":"no-at-sign"}"#),
        ("notice", #"{"kind":"link","title":"t","url":"not a uri"}"#),
        ("notice", #"{"text":"no kind"}"#),
        ("notice", #"[]"#),
    ])
    func aPayloadThatDoesNotDecodeGivesUnknownWithTheRawBytes(_ wireName: String, _ payload: String) {
        let data = Wire.data(payload)
        let event = ReferenceSDKEvent(wireName: wireName, data: data)
        #expect(event == .unknown(wireName: wireName, data: data))
        #expect(event.wireName == wireName)
    }

    @Test func onlySessionRevokedInvalidatesTheSession() {
        #expect(ReferenceSDKSchema.description.events.invalidating == ["session.revoked"])
        #expect(ReferenceSDKSchema.description.events.stream?.path == "/events")
    }
}
