// sesame-demo: the reference back-end and the SDK generated from Schema/, through a whole
// session. `make demo` runs it; it exits 0 when every step did what it should, 1 otherwise.
// `--verbose` adds the runtime's own logs (which never contain a token) on stderr.

import Foundation
import ReferenceSDKTestSupport

// Step 13 runs the app's widget as a process of this executable.
if CommandLine.arguments.dropFirst().first == Demo.widgetFlag {
    // `_exit`: see session-sharing-child.
    _exit(await SharedSessionChild.run(Array(CommandLine.arguments.dropFirst(2))))
}

// A step that hangs must fail the demo rather than block `make demo`.
let watchdog = Task {
    try await Task.sleep(for: .seconds(30))
    Console.error("\nsesame-demo: FAILED: a step took more than 30 s")
    exit(2)
}

Console.line("Sesame demo: the generated ReferenceSDK against the reference back-end, a whole session.")
let started = ContinuousClock.now
do {
    try await Demo.run(verbose: CommandLine.arguments.contains("--verbose"))
    watchdog.cancel()
    let elapsed = ContinuousClock.now - started
    Console.line("\nEvery step did what it should (\(elapsed.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 2))))).")
    exit(0)
} catch {
    watchdog.cancel()
    Console.error("\nsesame-demo: FAILED: \(error)")
    exit(1)
}
