import Foundation
import ReferenceSDK
import Testing

/// The generated string enums keep values this SDK does not know and send them back as
/// received, so an older app survives a newer back-end.
@Suite struct GeneratedEnumTests {
    @Test func anUnknownProviderIsKeptAndRoundTrips() throws {
        let details = try Wire.decode(AuthenticationDetails.self, #"{"uid":"u1","provider":"x","providerUID":"p1"}"#)
        #expect(details.provider == .unknown("x"))
        #expect(details.provider.rawValue == "x")
        #expect(details.provider.description == "x")
        #expect(try Wire.json(details)["provider"] == .string("x"))
        #expect(try Wire.roundTrip(details).provider == .unknown("x"))
    }

    @Test func everyKnownProviderDecodesToItsCaseAndEncodesToItsRawValue() throws {
        let expected: [(String, Provider)] = [("guest", .guest), ("internal", .internal), ("password", .password), ("custom", .custom)]
        #expect(Provider.allKnownCases == expected.map(\.1))
        for (raw, provider) in expected {
            #expect(try Wire.decode(Provider.self, "\"\(raw)\"") == provider)
            #expect(try Wire.encode(provider) == "\"\(raw)\"")
            #expect(Provider(rawValue: raw) == provider)
        }
    }

    @Test func rawValuesAreCaseSensitive() throws {
        #expect(try Wire.decode(Provider.self, #""Guest""#) == .unknown("Guest"))
        #expect(try Wire.decode(Provider.self, #""""#) == .unknown(""))
    }

    @Test func aNonStringProviderIsATypeMismatchAtItsPath() throws {
        let reason = try #require(Wire.decodingFailure(Identity.self, #"{"provider":3,"providerUID":"p1","attachedOn":"2024-05-01"}"#))
        #expect(reason == "$.provider: expected String")
    }

    @Test func anInlineEnumKeepsUnknownValuesToo() throws {
        #expect(Challenge.Channel.allKnownCases == [.email, .sms])
        let challenge = try Wire.decode(
            Challenge.self,
            #"{"challengeId":"3f2c5b8e-9a41-4e07-b6d2-1c8f0a7e4d55","channel":"carrier-pigeon","expiresAt":"2024-05-01T12:00:00Z"}"#)
        #expect(challenge.channel == .unknown("carrier-pigeon"))
        #expect(try Wire.json(challenge)["channel"] == .string("carrier-pigeon"))
        #expect(try Wire.decode(Challenge.Channel.self, #""sms""#) == .sms)
    }

    @Test func revocationReasonKeepsUnknownValues() throws {
        #expect(RevocationReason.allKnownCases == [.signedOutElsewhere, .passwordChanged, .adminAction])
        #expect(try Wire.decode(SessionRevoked.self, #"{"reason":"passwordChanged"}"#).reason == .passwordChanged)
        let future = try Wire.decode(SessionRevoked.self, #"{"reason":"deviceLost"}"#)
        #expect(future.reason == .unknown("deviceLost"))
        #expect(try Wire.encode(future) == #"{"reason":"deviceLost"}"#)
    }

    @Test func anEnumArrayKeepsEachUnknownValueInPlace() throws {
        let providers = try Wire.decode([Provider].self, #"["guest","sso","custom"]"#)
        #expect(providers == [.guest, .unknown("sso"), .custom])
        #expect(try Wire.encode(providers) == #"["guest","sso","custom"]"#)
    }
}
