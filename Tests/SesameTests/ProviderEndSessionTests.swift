import Foundation
@_spi(Generated) @testable import Sesame
import Testing

/// Which end session sign-out uses (RP-Initiated Logout 1.0): the schema's `openID.endSession`
/// by default, resolved against the run-time authorization server, with the configuration's
/// or the schema's post-logout URI; the configuration's `endSession` instead when set; none
/// when the app turns it off or the schema declares none.
@Suite struct ProviderEndSessionTests {
    typealias Configuration = AuthenticationServiceConfiguration<TwoServerSchema.Details>
    static let back = URL(string: "com.example.app://signed-out")!

    /// TwoServerSchema's description with its authorization server at `https://idp.test/base/` and `openID`.
    static func sdk(_ openID: OpenIDDescription?) -> SDKDescription {
        var sdk = TwoServerSchema.description
        sdk.authorizationBaseURL = URL(string: "https://idp.test/base/")!
        sdk.openID = openID
        return sdk
    }

    static let declared = OpenIDDescription(keys: "/jwks", endSession: "/logout?ui=compact", postLogoutRedirectURI: back)

    @Test func theSchemasEndSessionIsTheDefault() {
        #expect(
            ProviderEndSession(sdk: Self.sdk(Self.declared), configuration: Configuration())
                == .configured(
                    EndSessionConfiguration(
                        endpoint: URL(string: "https://idp.test/base/logout?ui=compact")!, postLogoutRedirectURI: Self.back)))
        // An absolute endpoint is used as it is.
        var absolute = Self.declared
        absolute.endSession = "https://idp.test/v2/logout"
        #expect(
            ProviderEndSession(sdk: Self.sdk(absolute), configuration: Configuration())
                == .configured(
                    EndSessionConfiguration(endpoint: URL(string: "https://idp.test/v2/logout")!, postLogoutRedirectURI: Self.back)))
    }

    @Test func theConfigurationOverridesOrTurnsItOff() {
        let other = URL(string: "com.example.app://staging/signed-out")!
        #expect(
            ProviderEndSession(sdk: Self.sdk(Self.declared), configuration: Configuration(postLogoutRedirectURI: other))
                == .configured(
                    EndSessionConfiguration(endpoint: URL(string: "https://idp.test/base/logout?ui=compact")!, postLogoutRedirectURI: other)
                ))
        let own = EndSessionConfiguration(endpoint: URL(string: "https://login.test/bye")!, postLogoutRedirectURI: other)
        #expect(ProviderEndSession(sdk: Self.sdk(Self.declared), configuration: Configuration(endSession: own)) == .configured(own))
        #expect(ProviderEndSession(sdk: Self.sdk(Self.declared), configuration: Configuration(endsProviderSession: false)) == .off)
        #expect(
            ProviderEndSession(sdk: Self.sdk(Self.declared), configuration: Configuration(endSession: own, endsProviderSession: false))
                == .off)
    }

    @Test func withoutAnEndpointNothingAndWithoutAURIAReason() {
        #expect(ProviderEndSession(sdk: Self.sdk(nil), configuration: Configuration()) == .off)
        #expect(ProviderEndSession(sdk: Self.sdk(OpenIDDescription(keys: "/jwks")), configuration: Configuration()) == .off)
        var noURI = Self.declared
        noURI.postLogoutRedirectURI = nil
        guard case .unusable(let reason) = ProviderEndSession(sdk: Self.sdk(noURI), configuration: Configuration()) else {
            Issue.record("expected unusable")
            return
        }
        #expect(reason.hasPrefix("no post-logout redirect URI"))
        // The configuration's URI makes it usable.
        #expect(
            ProviderEndSession(sdk: Self.sdk(noURI), configuration: Configuration(postLogoutRedirectURI: Self.back))
                == .configured(
                    EndSessionConfiguration(
                        endpoint: URL(string: "https://idp.test/base/logout?ui=compact")!, postLogoutRedirectURI: Self.back)))
    }
}
