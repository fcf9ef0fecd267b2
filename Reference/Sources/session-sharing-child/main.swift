// `session-sharing-child <base URL> <directory> <client id> <client secret> requests <n> | watch`:
// one process of an app that shares its session with others, for the multi-process
// end-to-end tests (Reference/Tests/EndToEndTests/SharedSessionEndToEndTests). What it does:
// `SharedSessionChild` (Reference/Sources/ReferenceSDKTestSupport).
import Foundation
import ReferenceSDKTestSupport

// `_exit`, not `exit`: the output is written unbuffered, and `exit`'s handlers would run while
// the session store's polling may still be reading SQLite on another thread.
_exit(await SharedSessionChild.run(Array(CommandLine.arguments.dropFirst())))
