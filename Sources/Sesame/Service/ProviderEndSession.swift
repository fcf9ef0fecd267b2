import Foundation
@_spi(Generated) import SesameDescription

/// How sign-out ends the session at the OpenID provider (RP-Initiated Logout 1.0), decided
/// once when the service is created: the configuration's ``EndSessionConfiguration`` when
/// it sets one, else the one the schema's `openID.endSession` describes, resolved against the
/// run-time authorization server, with the configuration's or the schema's post-logout
/// redirect URI. Internal.
enum ProviderEndSession: Sendable, Hashable {
    /// Sign-out stays with the back-end: no end-session endpoint, or the app turned it off
    /// (``AuthenticationServiceConfiguration/endsProviderSession``).
    case off
    /// Sign-out opens this end-session request in the browser.
    case configured(EndSessionConfiguration)
    /// The schema declares an end-session endpoint that cannot be used (no post-logout
    /// redirect URI, or no URL), or the configuration sets a post-logout redirect URI with no
    /// endpoint anywhere: the service logs a warning when it is created, sign-out says why in
    /// its result, and opens nothing.
    case unusable(reason: String)

    init<Details>(sdk: SDKDescription, configuration: AuthenticationServiceConfiguration<Details>) {
        guard configuration.endsProviderSession else {
            self = .off
            return
        }
        if let configured = configuration.endSession {
            self = .configured(configured)
            return
        }
        guard let openID = sdk.openID, openID.endSession != nil else {
            // A post-logout URI says the app expects the provider's session to end at sign-out:
            // with no endpoint to send it to, sign-out says so rather than dropping it silently.
            if configuration.postLogoutRedirectURI != nil {
                self = .unusable(
                    reason:
                        "postLogoutRedirectURI is set, but there is no end-session endpoint: declare openID.endSession in the schema or set endSession in the configuration"
                )
            } else {
                self = .off
            }
            return
        }
        guard let endpoint = openID.endSessionURL(authorizationServer: sdk.baseURL(of: .authorization)) else {
            self = .unusable(reason: "the schema's openID.endSession does not make a URL with the authorization server's")
            return
        }
        // The ID token goes there as id_token_hint: an absolute endpoint must be on the origin
        // of the provider the service talks to at run time (the schema's issuer and
        // authorization server, or the configuration's), not only on the schema's. An app that
        // moves the authorization server to a staging provider must not send its ID tokens to
        // the production provider's logout.
        if openID.endSession?.hasPrefix("/") == false {
            let origin = CredentialScope.Origin(url: endpoint)
            let providers = [sdk.baseURL(of: .authorization), sdk.authorizationIssuer.flatMap { URL(string: $0.issuer) }]
                .compactMap { $0.flatMap(CredentialScope.Origin.init(url:)) }
            guard let origin, providers.contains(origin) else {
                self = .unusable(
                    reason:
                        "the schema's openID.endSession is not on the run-time provider's origin (its issuer or authorization server): set endSession in the configuration"
                )
                return
            }
        }
        guard let postLogoutRedirectURI = configuration.postLogoutRedirectURI ?? openID.postLogoutRedirectURI else {
            self = .unusable(
                reason:
                    "no post-logout redirect URI: set openID.postLogoutRedirectURI in the schema or postLogoutRedirectURI in the configuration"
            )
            return
        }
        self = .configured(EndSessionConfiguration(endpoint: endpoint, postLogoutRedirectURI: postLogoutRedirectURI))
    }
}
