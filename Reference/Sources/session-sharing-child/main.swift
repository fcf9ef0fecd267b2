// `session-sharing-child <base URL> <directory> <client id> <client secret> requests <n> | watch`:
// one process of an app that shares its session with others, for the multi-process
// end-to-end tests (Reference/Tests/EndToEndTests/SharedSessionEndToEndTests). What it does:
// `SharedSessionChild` (Reference/Sources/ReferenceSDKTestSupport).
import Foundation
import ReferenceSDKTestSupport

exit(await SharedSessionChild.run(Array(CommandLine.arguments.dropFirst())))
