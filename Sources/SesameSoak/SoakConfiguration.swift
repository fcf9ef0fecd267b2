// SesameSoak is a stress harness for the Sesame runtime, not part of the SDK: it drives the
// generated ReferenceSDK through an in-memory back-end that injects faults (`SoakBackEnd`)
// and checks that every request ends exactly once, with a success or a typed error.
// `sesame-bench soak` runs it at scale; Tests/ReferenceSDKTests/SoakTests.swift runs it
// small, also under ThreadSanitizer (scripts/tsan.sh).

/// What a soak run does: how many requests, how many at once, its seed, its faults and how
/// fast its clock runs.
public struct SoakConfiguration: Sendable {
    /// How many requests the run sends.
    public var requests: Int
    /// How many requests are in flight at once: the run sends them in waves of this size.
    public var concurrency: Int
    /// Seeds the choice of operations and the back-end's faults. The interleaving of
    /// concurrent requests still varies from run to run, and with it which request meets
    /// which fault.
    public var seed: UInt64
    /// How often each fault happens.
    public var faults: FaultRates
    /// Virtual seconds each request moves the clock. The clock moves between waves only, so
    /// a refresh reaches the back-end at the very time the runtime counted it.
    public var secondsPerRequest: Double
    /// How long access tokens last, in virtual seconds; the schema refreshes 60 s before
    /// expiry, so a lifetime a little over a minute makes proactive refreshes frequent.
    public var tokenLifetime: Int
    /// How long (real time) a wave may take before its unfinished requests count as lost.
    public var stallTimeout: Duration

    /// Creates a configuration; the defaults are those of `sesame-bench soak`.
    public init(requests: Int = 100_000, concurrency: Int = 64, seed: UInt64 = 1, faults: FaultRates = .standard,
                secondsPerRequest: Double = 0.1, tokenLifetime: Int = 90, stallTimeout: Duration = .seconds(60))
    {
        self.requests = requests
        self.concurrency = concurrency
        self.seed = seed
        self.faults = faults
        self.secondsPerRequest = secondsPerRequest
        self.tokenLifetime = tokenLifetime
        self.stallTimeout = stallTimeout
    }
}

/// How often the soak back-end injects each fault, as probabilities from 0 to 1.
public struct FaultRates: Sendable {
    /// Any request fails in the transport (`URLError.networkConnectionLost`) before it
    /// reaches the back-end: sign-ins, refreshes and operations alike.
    public var transportError: Double
    /// A refresh is answered 503 `unavailable`, half the time with `Retry-After: 1`.
    public var refreshTransient: Double
    /// A refresh is answered 400 `invalid_grant` and its session revoked: the service
    /// becomes `invalid`, and the run signs in again.
    public var refreshTerminal: Double
    /// An operation carrying a live access token is answered with the RFC 6750 rejection
    /// (401, `error="invalid_token"`) all the same, as after a revocation the client cannot see.
    public var rejection: Double
    /// `GET /notes` is answered with a 307 to another origin, which must get no credential.
    public var redirect: Double
    /// A request waits up to ``maximumLatency`` before it is answered (others yield a few times).
    public var latency: Double
    /// The longest injected latency.
    public var maximumLatency: Duration

    /// Creates fault rates.
    public init(transportError: Double, refreshTransient: Double, refreshTerminal: Double, rejection: Double,
                redirect: Double, latency: Double, maximumLatency: Duration)
    {
        self.transportError = transportError
        self.refreshTransient = refreshTransient
        self.refreshTerminal = refreshTerminal
        self.rejection = rejection
        self.redirect = redirect
        self.latency = latency
        self.maximumLatency = maximumLatency
    }

    /// 10% transport errors, 1% of refreshes failing (half transient, half terminal), 2%
    /// rejected operations (with the default clock, enough to press on the schema's refresh
    /// window), 0.5% cross-origin redirects, a quarter of requests delayed up to 2 ms.
    public static let standard = FaultRates(transportError: 0.10, refreshTransient: 0.005, refreshTerminal: 0.005,
                                            rejection: 0.02, redirect: 0.005, latency: 0.25, maximumLatency: .milliseconds(2))

    /// No faults at all: the run's final check uses it.
    public static let none = FaultRates(transportError: 0, refreshTransient: 0, refreshTerminal: 0, rejection: 0,
                                        redirect: 0, latency: 0, maximumLatency: .zero)
}
