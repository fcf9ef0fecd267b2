import Foundation
import ReferenceSDK

/// What the demo prints: step headings, what happened, and the service's events as they
/// arrive. Never a token: states print their case, events their kind, details their uid.
enum Console {
    /// Writes a line to standard output at once (unbuffered, so that lines from the event
    /// subscription and from the steps come out in the order they happen, even in a pipe).
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Writes a line to standard error.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func step(_ number: Int, _ title: String) {
        line("\n\(number). \(title)")
    }

    static func info(_ text: String) {
        line("   \(text)")
    }

    static func ok(_ text: String) {
        line("   ✓ \(text)")
    }

    /// Prints an event; `previous` is the state published before, to tell a change of
    /// details (the same user, still signed in) from a change of state.
    static func event(
        _ event: AuthenticationEvent<ReferenceSDKSchema>,
        previous: AuthenticationState<AuthenticationDetails>?
    ) {
        if case .stateChanged(.authenticated(let details)) = event, case .authenticated(let before)? = previous,
            before.uid == details.uid
        {
            line("   ◆ state → authenticated, same user, fresh details from the back-end")
            return
        }
        line("   ◆ \(describe(event))")
    }

    static func describe(_ event: AuthenticationEvent<ReferenceSDKSchema>) -> String {
        switch event {
        case .stateChanged(let state):
            return "state → \(describe(state))"
        case .tokenRefreshed(let expiresAt):
            return "token refreshed" + (expiresAt.map { ", new one valid until \(time($0))" } ?? "")
        case .refreshFailed(let failure):
            return "refresh failed (\(failure.kind.rawValue))"
        case .server(let event):
            return "server event \(event.wireName): \(describe(event))"
        case .deviceAuthorization(let prompt):
            return "device sign-in waiting for code \(prompt.userCode) at \(prompt.verificationURI.absoluteString)"
        }
    }

    static func describe(_ state: AuthenticationState<AuthenticationDetails>) -> String {
        switch state {
        case .authenticated(let details): return "authenticated as \(who(details))"
        case .presession(let details): return "presession as \(who(details))"
        case .unauthenticated, .invalid: return "\(state)"
        }
    }

    static func describe(_ event: ReferenceSDKEvent) -> String {
        switch event {
        case .sessionRevoked(let payload): return "the session was revoked (\(payload.reason))"
        case .profileUpdated(let details): return "profile of \(details.uid) updated"
        case .notice(.text(let notice)): return "“\(notice.text)”"
        case .notice(.link(let notice)): return "“\(notice.title)” → \(notice.url)"
        case .notice(.unknown(let kind, _)): return "a notice of kind \(kind)"
        case .unknown(let wireName, _): return "an event this SDK does not know (\(wireName)), kept as is"
        }
    }

    static func who(_ details: AuthenticationDetails) -> String {
        "\(details.provider) user \(details.uid)" + (details.email.map { " <\($0)>" } ?? "")
    }

    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }
}
