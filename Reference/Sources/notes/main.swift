import Foundation
import NotesSDK

// Where the back-end is, and where the app keeps its data: the reference server's address
// and a folder of the current directory, unless the environment says otherwise.
let environment = ProcessInfo.processInfo.environment
let server = URL(string: environment["NOTES_SERVER"] ?? "http://127.0.0.1:8080")!
let directory = URL(fileURLWithPath: environment["NOTES_DATA"] ?? ".notes")

// Browser sign-in for a command-line app: it receives the redirect on 127.0.0.1 itself.
let browser = LoopbackBrowser { url in
    // Written at once, also when the output is a pipe: the sign-in waits for it.
    FileHandle.standardOutput.write(Data("Sign in in your browser (alice, wonderland): \(url)\n".utf8))
    try? await LoopbackBrowser.openInSystemBrowser(url)
}

let notes = try NotesApp(server: server, directory: directory, browser: browser)
for line in try await notes.run(Array(CommandLine.arguments.dropFirst())) {
    print(line)
}
