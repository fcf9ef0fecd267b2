// `bound-session-child <base URL>,<authorization server URL> <directory> <client id> <client secret> key | follow`:
// one process of an app whose DPoP-bound session is shared with other processes, for
// Reference/Tests/EndToEndTests/SharedDPoPKeyEndToEndTests. Its session store and its DPoP key
// are in <directory> (`SharedSQLiteSessionStore`, `FileDPoPKeyStore`), as an app and its
// extensions keep them in an App Group container.
// - `key` prints the thumbprint of the key it signs with (`key <thumbprint>`), reading the
//   key, or creating it when there is none.
// - `follow` restores the saved session, sends `me` and prints `ready <thumbprint>`; it then
//   waits until another process signs out (and prints `signed out`) and in again, sends `me`
//   once more and prints `after ok <thumbprint>`, or `after failed <error>`.
import BoundTokensSDK
import Foundation
import Logging
import Sesame
import SesameDPoP
import SesameStore

/// The service over the directory's shared session and key.
func makeService(_ arguments: [String]) throws -> (AuthenticationService<BoundTokensSDKSchema>, DPoP) {
    let origins = arguments[0].split(separator: ",").compactMap { URL(string: String($0)) }
    guard let api = origins.first, let authorization = origins.last else { throw ChildError.usage }
    let directory = URL(fileURLWithPath: arguments[1], isDirectory: true)
    let contexts = try AppContexts(root: directory)
    let dpop = DPoP(keyStore: FileDPoPKeyStore(url: directory.appendingPathComponent("dpop-key.pem")))
    let service = AuthenticationService<BoundTokensSDKSchema>(
        configuration: .init(
            baseURL: api,
            client: ClientCredentials(clientID: arguments[2], clientSecret: arguments[3]),
            // Logs on standard error: standard output carries the results.
            logger: Logger(label: "sesame.bound-session-child", factory: { StreamLogHandler.standardError(label: $0) }),
            sessionStore: contexts.standard.sharedSessionStore(userID: BoundTokensSDKSchema.userID(of:)),
            restorationDelegate: TrustTheSavedSession(), receivesServerEvents: false,
            authorizationServerURL: authorization,
            proofOfPossession: dpop))
    return (service, dpop)
}

/// Vouches for the saved session at launch: no launch refresh.
struct TrustTheSavedSession: SessionRestorationDelegate {
    func shouldRefresh(user: BoundTokensSDK.AuthenticationDetails, isStartup: Bool) async -> Bool { false }
}

enum ChildError: Error { case usage }

func write(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func run(_ arguments: [String]) async -> Int32 {
    guard arguments.count == 5 else {
        FileHandle.standardError.write(
            Data("usage: <base URL>,<authorization URL> <directory> <client id> <client secret> key | follow\n".utf8))
        return 2
    }
    do {
        let (service, dpop) = try makeService(arguments)
        switch arguments[4] {
        case "key":
            write("key \(try await dpop.thumbprint())")
        case "follow":
            guard case .authenticated = await service.restoreSession() else {
                write("ready failed no session")
                return 1
            }
            _ = try await service.me()
            // Subscribed once restored: the stream starts with the state of then.
            let events = await service.events()
            write("ready \(try await dpop.thumbprint())")
            var signedOut = false
            for await event in events {
                guard case .stateChanged(let state) = event else { continue }
                if !signedOut, case .unauthenticated = state {
                    signedOut = true
                    write("signed out")
                }
                if signedOut, case .authenticated = state { break }
            }
            do {
                _ = try await service.me()
                write("after ok \(try await dpop.thumbprint())")
            } catch {
                write("after failed \(error)")
            }
        default:
            return 2
        }
        return 0
    } catch {
        FileHandle.standardError.write(Data("bound-session child: \(error)\n".utf8))
        return 1
    }
}

// `_exit`, not `exit`: the session store's polling may still be reading SQLite on another thread.
_exit(await run(Array(CommandLine.arguments.dropFirst())))
