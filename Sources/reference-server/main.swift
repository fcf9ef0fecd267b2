// The reference back-end as a program: `reference-server [--host H] [--port P]
// [--token-lifetime SECONDS] [--dev]`. See docs/reference-server.md.
import Foundation
import Logging
import ReferenceServer

let usage = """
    usage: reference-server [--host HOST] [--port PORT] [--token-lifetime SECONDS] [--dev]
      --host HOST               address to bind (default 127.0.0.1)
      --port PORT               port to bind, 0 for any free one (default 8080)
      --token-lifetime SECONDS  access-token lifetime (default 3600)
      --dev                     log one-time codes of internal sign-ins (never tokens)
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("reference-server: \(message)\n\(usage)\n".utf8))
    exit(64)
}

var configuration = ReferenceServer.Configuration(port: 8080)
var arguments = CommandLine.arguments.dropFirst()[...]
while let argument = arguments.popFirst() {
    func value() -> String {
        guard let value = arguments.popFirst() else { fail("\(argument) needs a value") }
        return value
    }
    switch argument {
    case "--host":
        configuration.host = value()
    case "--port":
        let text = value()
        guard let port = Int(text), (0...65535).contains(port) else { fail("bad port \(text)") }
        configuration.port = port
    case "--token-lifetime":
        let text = value()
        guard let seconds = Int(text), seconds > 0 else { fail("bad token lifetime \(text)") }
        configuration.accessTokenLifetime = .seconds(seconds)
    case "--dev":
        configuration.logsChallengeCodes = true
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        fail("unknown argument \(argument)")
    }
}

// Info level: the listening address, and in dev mode the one-time codes. Never tokens.
var logger = Logger(label: "sesame.reference-server")
logger.logLevel = .info
configuration.logger = logger

do {
    try await ReferenceServer(configuration: configuration).run()
} catch {
    FileHandle.standardError.write(Data("reference-server: \(error)\n".utf8))
    exit(1)
}
