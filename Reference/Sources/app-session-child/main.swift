// The child process of the end-to-end relaunch test (Reference/Tests/EndToEndTests/AppSessionEndToEndTests):
//
//     app-session-child <base URL> <directory> <client id> <client secret>
//
// An app as it runs: an AppSession over the reference back-end at <base URL>, with its
// contexts in <directory>. Signs in as alice (password grant), writes a note into her
// persistence store, prints "ready <uid>", then waits to be killed with SIGKILL, as an app
// the system terminates. The test then relaunches the app in its own process.
// Exit status: 1 when a step fails, 2 on bad arguments; it never exits 0.
import Foundation
import ReferenceSDK
import SesameStore

let arguments = CommandLine.arguments
guard arguments.count == 5, let baseURL = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: app-session-child <base URL> <directory> <client id> <client secret>\n".utf8))
    exit(2)
}
do {
    let app = try AppSession<ReferenceSDKSchema>(
        configuration: .init(
            service: .init(
                baseURL: baseURL, client: ClientCredentials(clientID: arguments[3], clientSecret: arguments[4]),
                receivesServerEvents: false, authorizationServerURL: baseURL),
            directory: URL(fileURLWithPath: arguments[2], isDirectory: true)))
    let alice = try await app.auth.authenticate(with: SingleStepMethod.password(username: "alice", password: "wonderland"))
    guard let context = app.currentContext, context.userID == alice.uid else {
        FileHandle.standardError.write(Data("app-session-child: no context for the signed-in user\n".utf8))
        exit(1)
    }
    try await context.stores.persistence.write { db in
        try ReferenceSDKStore.Persistence.Note(id: "n-1", text: "written before the kill", createdAt: 0).insert(db)
    }
    FileHandle.standardOutput.write(Data("ready \(alice.uid)\n".utf8))
    while true { try await Task.sleep(for: .seconds(60)) }
} catch {
    FileHandle.standardError.write(Data("app-session-child: \(error)\n".utf8))
    exit(1)
}
