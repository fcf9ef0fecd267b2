import Foundation
import Logging
import ReferenceSDK
import SesameStore

/// One process of an app that shares its session with others (issue 28): the app, a widget,
/// an extension. `session-sharing-child` runs it for the multi-process end-to-end tests
/// (Reference/Tests/EndToEndTests/SharedSessionEndToEndTests), and `sesame-bench processes`
/// runs it in processes of its own.
///
///     <base URL>[,<authorization server URL>] <directory> <client id> <client secret, empty for a public client> requests <n>
///     <base URL>[,<authorization server URL>] <directory> <client id> <client secret> watch
///
/// Both open an AppSession over the reference back-end at <base URL> with its contexts in
/// <directory>, shared across processes, and restore the session saved there without a
/// launch refresh (the restoration delegate vouches for it).
/// - `requests <n>` then sends the `me` operation n times, each refreshing the credential
///   when it is due, and prints one JSON line: `{"errors": {"<error>": count}, "failed": …, "ok": …}`.
/// - `watch` prints `ready <state> <uid or ->` once restored, then, at the first change of
///   state that another process causes, `changed <state> <uid or -> <milliseconds since 1970>`.
public enum SharedSessionChild {
    /// Runs the process's part and returns its exit status: 0 when done, 1 when a step
    /// fails, 2 on bad arguments.
    public static func run(_ arguments: [String]) async -> Int32 {
        let origins = arguments.first?.split(separator: ",").compactMap { URL(string: String($0)) } ?? []
        guard arguments.count >= 5, let baseURL = origins.first else {
            FileHandle.standardError.write(
                Data("usage: <base URL> <directory> <client id> <client secret> requests <n> | watch\n".utf8))
            return 2
        }
        do {
            let app = try AppSession<ReferenceSDKSchema>(
                configuration: .init(
                    service: .init(
                        baseURL: baseURL,
                        client: ClientCredentials(clientID: arguments[2], clientSecret: arguments[3].isEmpty ? nil : arguments[3]),
                        // Logs on standard error: standard output carries the results.
                        logger: Logger(label: "sesame.shared-session-child", factory: { StreamLogHandler.standardError(label: $0) }),
                        restorationDelegate: TrustTheSavedSession(), receivesServerEvents: false,
                        authorizationServerURL: origins.last),
                    stores: ReferenceSDKStore.definition,
                    directory: URL(fileURLWithPath: arguments[1], isDirectory: true),
                    sharing: .acrossProcesses()))
            let restored = await app.restoreSession()
            switch arguments[4] {
            case "requests":
                guard arguments.count == 6, let count = Int(arguments[5]) else { return 2 }
                var ok = 0
                var errors: [String: Int] = [:]
                for _ in 0..<count {
                    do {
                        _ = try await app.auth.me()
                        ok += 1
                    } catch {
                        errors["\(error)", default: 0] += 1
                    }
                }
                let line: [String: Any] = ["ok": ok, "failed": count - ok, "errors": errors]
                let json = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
                FileHandle.standardOutput.write(json + Data("\n".utf8))
            case "watch":
                let events = await app.auth.events()
                FileHandle.standardOutput.write(Data("ready \(describe(restored))\n".utf8))
                for await event in events {
                    guard case .stateChanged(let state) = event, state != restored else { continue }
                    let milliseconds = Int((Date().timeIntervalSince1970 * 1000).rounded())
                    FileHandle.standardOutput.write(Data("changed \(describe(state)) \(milliseconds)\n".utf8))
                    break
                }
            default:
                return 2
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("shared-session child: \(error)\n".utf8))
            return 1
        }
    }

    /// `authenticated <uid>`, `unauthenticated -`, …
    static func describe(_ state: AuthenticationState<AuthenticationDetails>) -> String {
        switch state {
        case .unauthenticated: return "unauthenticated -"
        case .presession(let details): return "presession \(details.uid)"
        case .authenticated(let details): return "authenticated \(details.uid)"
        case .invalid: return "invalid -"
        }
    }

    /// Vouches for the saved session at launch: the caller decides when refreshes happen.
    struct TrustTheSavedSession: SessionRestorationDelegate {
        func shouldRefresh(user: AuthenticationDetails, isStartup: Bool) async -> Bool { false }
    }
}
