import Foundation
import ReferenceSDK
import SesameStore
import SesameTestSupport

extension Demo {
    /// The argument that makes this executable the app's widget (`SharedSessionChild`).
    static let widgetFlag = "--shared-session-widget"

    /// Step 13: the app and its widget, two processes over one directory (an App Group
    /// container on iOS), share one session: the widget refreshes and the app adopts it, then
    /// the app signs out and the widget's session ends at once.
    func shareTheSessionWithAWidget() async throws {
        Console.step(13, "An app and its widget share one session (two processes, one directory)")
        let shared = directory.appendingPathComponent("app-group", isDirectory: true)
        // Real time here: the widget is another process, with the system's clock.
        let app = try AppSession<ReferenceSDKSchema>(
            configuration: .init(
                service: .init(
                    baseURL: backEnd.baseURL,
                    client: ClientCredentials(clientID: "sesame-demo-app"),
                    logger: logger, receivesServerEvents: false, authorizationServerURL: backEnd.authorizationBaseURL,
                    authorizationServerIssuer: backEnd.issuer),
                directory: shared, sharing: .acrossProcesses()))
        // A token that is due at once (30 s, within the schema's 60 s leeway).
        await backEnd.setAccessTokenLifetime(.seconds(30))
        let alice = try await app.auth.authenticate(with: SingleStepMethod.password(username: "alice", password: "wonderland"))
        await backEnd.setAccessTokenLifetime(.seconds(3600))
        Console.info("the app signed Alice in; her access token is due for a refresh")

        let arguments = [
            "\(backEnd.baseURL.absoluteString),\(backEnd.authorizationBaseURL.absoluteString)", shared.path,
            "sesame-demo-app", "",
        ]
        let refreshes = await backEnd.refreshCount()
        let widget = try await Self.widget(arguments + ["requests", "1"]).remainingOutput()
        try check(widget.contains(#""failed":0"#), "the widget's request failed: \(widget)")
        try check(await backEnd.refreshCount() == refreshes + 1, "the widget did not refresh once")
        _ = try await app.auth.me()
        try check(await backEnd.refreshCount() == refreshes + 1, "the app refreshed again instead of adopting the widget's token")
        Console.ok("the widget (another process) refreshed the token; the app adopted it: 1 refresh at the server for both")

        let watcher = try Self.widget(arguments + ["watch"])
        let ready = try await watcher.line()
        try check(ready == "ready authenticated \(alice.uid)", "the widget did not restore Alice's session: \(ready)")
        let signedOut = Date().timeIntervalSince1970 * 1000
        await app.auth.unauthenticate()
        let changed = try await watcher.line().split(separator: " ")
        try check(changed.count == 4 && changed[1] == "unauthenticated", "the widget stayed signed in: \(changed)")
        let milliseconds = (Double(changed[3]) ?? signedOut) - signedOut
        Console.ok("the app signed out; the widget's state became unauthenticated \(Int(milliseconds.rounded())) ms later")
        _ = await watcher.exitStatus()
        try app.contexts.close()
    }

    /// This executable.
    static var executable: URL {
        #if os(Linux)
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        #else
        Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        #endif
    }

    /// The widget: this executable, as `SharedSessionChild` with `arguments`.
    static func widget(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(executable, arguments: [widgetFlag] + arguments)
    }
}
