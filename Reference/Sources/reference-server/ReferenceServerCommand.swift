import ArgumentParser
import Foundation
import Logging
import ReferenceServer

/// The reference back-end as a program (docs/reference-server.md): it serves until SIGINT or
/// SIGTERM, logging at info level its listening address and, with `--dev`, the one-time
/// codes of internal sign-ins; never a token.
@main
struct ReferenceServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference-server",
        abstract: "Serves the reference back-end of Schema/ in memory, on Hummingbird.",
        discussion: "Everything lives in memory and is lost when the server stops."
    )

    @Option(help: "The address to bind.")
    var host = "127.0.0.1"

    @Option(help: "The port to bind, 0 for any free one.")
    var port = 8080

    @Option(
        name: .customLong("authorization-port"),
        help: ArgumentHelp(
            "Serve the authorization server (/oauth/authorize, /oauth/token, /oauth/revoke) on this port, a second origin; 0 for any free one. Without it, they share --port.",
            valueName: "port"
        )
    )
    var authorizationPort: Int?

    @Option(name: .customLong("token-lifetime"), help: ArgumentHelp("The access-token lifetime.", valueName: "seconds"))
    var tokenLifetime = 3600

    @Flag(help: "Log the one-time codes of internal sign-ins (never tokens).")
    var dev = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("bad port \(port)") }
        if let authorizationPort {
            guard (0...65535).contains(authorizationPort) else { throw ValidationError("bad authorization port \(authorizationPort)") }
            guard authorizationPort != port || port == 0 else {
                throw ValidationError("the authorization port must differ from --port (\(port))")
            }
        }
        guard tokenLifetime > 0 else { throw ValidationError("bad token lifetime \(tokenLifetime)") }
    }

    func run() async throws {
        var configuration = ReferenceServer.Configuration(host: host, port: port)
        configuration.accessTokenLifetime = .seconds(tokenLifetime)
        configuration.authorizationServer = authorizationPort.map { .separate(port: $0) } ?? .sameOrigin
        configuration.logsChallengeCodes = dev
        // Info level: the listening address, and in dev mode the one-time codes. Never tokens.
        var logger = Logger(label: "sesame.reference-server")
        logger.logLevel = .info
        configuration.logger = logger
        do {
            try await ReferenceServer(configuration: configuration).run()
        } catch {
            FileHandle.standardError.write(Data("reference-server: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
