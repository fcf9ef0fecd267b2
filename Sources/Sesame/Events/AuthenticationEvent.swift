import Foundation

/// What subscribers of an ``AuthenticationService`` receive, in order.
public enum AuthenticationEvent<Schema: SDKSchema>: Sendable, Hashable, CustomStringConvertible {
    /// The authentication state changed; each subscriber first receives the current state.
    case stateChanged(AuthenticationState<Schema.Details>)
    /// The credential was refreshed; the new access token expires at this date (nil when
    /// the back-end did not say).
    case tokenRefreshed(expiresAt: Date?)
    /// A refresh failed.
    case refreshFailed(RefreshFailure)
    /// The back-end pushed an event over its server-sent-events stream; events the SDK does
    /// not know arrive as the generated type's `unknown` case.
    case server(Schema.Event)
    /// A device step (RFC 8628) got its user code: show it and the verification URI until
    /// the sign-in ends (``AuthenticationService/ongoingAuthentication`` holds it too).
    case deviceAuthorization(DeviceAuthorizationPrompt)

    /// A description without tokens or details.
    public var description: String {
        switch self {
        case .stateChanged(let state): return "stateChanged(\(state))"
        case .tokenRefreshed: return "tokenRefreshed"
        case .refreshFailed(let failure): return "refreshFailed(\(failure))"
        case .server(let event): return "server(\(event.wireName))"
        case .deviceAuthorization(let prompt): return "deviceAuthorization(\(prompt))"
        }
    }
}
