import Foundation
import Logging

extension ReferenceServer {
    /// A client the token endpoint accepts (RFC 6749 §2).
    public struct Client: Sendable, Hashable {
        /// The client identifier.
        public var id: String
        /// The client secret; `nil` makes a public client that sends only `client_id`.
        public var secret: String?

        /// Makes a client.
        public init(id: String, secret: String?) {
            self.id = id
            self.secret = secret
        }

        /// The demo client, `sesame-demo` with secret `demo-secret`.
        public static let demo = Client(id: "sesame-demo", secret: "demo-secret")
    }

    /// Everything that can be set before the server starts.
    ///
    /// Values that tests change while the server runs (token lifetime, latency, failures,
    /// the clock) are also settable later through ``ReferenceServerState`` or `/_control`.
    public struct Configuration: Sendable {
        /// The address to bind, `127.0.0.1` by default.
        public var host: String
        /// The port to bind; 0 picks a free one (read it from ``ReferenceServer/Endpoint``).
        public var port: Int
        /// The lifetime of new access tokens, 3600 s by default.
        public var accessTokenLifetime: Duration
        /// The lifetime of refresh tokens; `nil` (the default) means they never expire.
        public var refreshTokenLifetime: Duration?
        /// How long a one-time code of an internal challenge stays valid, 300 s by default.
        public var challengeLifetime: Duration
        /// Wrong codes accepted before a challenge is burnt, 5 by default.
        public var challengeMaxAttempts: Int
        /// How recent a sign-in `DELETE /identities/{provider}` and `DELETE /account` need.
        public var freshAuthenticationWindow: Duration
        /// The clients the token endpoint accepts.
        public var clients: [Client]
        /// User names and passwords the password grant accepts.
        public var users: [String: String]
        /// The interval between `: ping` comments on event streams.
        public var heartbeatInterval: Duration
        /// How many events per user are kept for `Last-Event-ID` replay.
        public var eventBufferSize: Int
        /// Dev mode: log one-time codes at info level. Tokens and secrets are never logged.
        public var logsChallengeCodes: Bool
        /// The wall clock every expiry decision reads. Tests inject their own; the control
        /// API can also move the server's time forward (see ``ReferenceServerState/advanceClock(by:)``).
        public var now: @Sendable () -> Date
        /// The logger; the server logs requests at debug level and codes at info in dev mode.
        public var logger: Logger

        /// Makes a configuration; every parameter has the default documented on its property.
        public init(
            host: String = "127.0.0.1",
            port: Int = 8080,
            accessTokenLifetime: Duration = .seconds(3600),
            refreshTokenLifetime: Duration? = nil,
            challengeLifetime: Duration = .seconds(300),
            challengeMaxAttempts: Int = 5,
            freshAuthenticationWindow: Duration = .seconds(300),
            clients: [Client] = [.demo],
            users: [String: String] = ["alice": "wonderland", "bob": "builder"],
            heartbeatInterval: Duration = .seconds(15),
            eventBufferSize: Int = 100,
            logsChallengeCodes: Bool = false,
            now: @escaping @Sendable () -> Date = { Date() },
            logger: Logger = Logger(label: "sesame.reference-server")
        ) {
            self.host = host
            self.port = port
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
            self.challengeLifetime = challengeLifetime
            self.challengeMaxAttempts = challengeMaxAttempts
            self.freshAuthenticationWindow = freshAuthenticationWindow
            self.clients = clients
            self.users = users
            self.heartbeatInterval = heartbeatInterval
            self.eventBufferSize = eventBufferSize
            self.logsChallengeCodes = logsChallengeCodes
            self.now = now
            self.logger = logger
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `TimeInterval`.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
