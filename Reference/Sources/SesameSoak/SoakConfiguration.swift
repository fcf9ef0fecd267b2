import ReferenceSDKTestSupport

// SesameSoak is a stress harness for the Sesame runtime, not part of the SDK: it drives the
// generated ReferenceSDK through the in-memory back-end that injects faults (`InMemoryBackEnd`,
// in Reference/Sources/ReferenceSDKTestSupport)
// and checks that every request ends exactly once, with a success or a typed error.
// `sesame-bench soak` runs it at scale; Reference/Tests/ReferenceSDKTests/SoakTests.swift runs it
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
    public init(
        requests: Int = 100_000, concurrency: Int = 64, seed: UInt64 = 1, faults: FaultRates = .standard,
        secondsPerRequest: Double = 0.1, tokenLifetime: Int = 90, stallTimeout: Duration = .seconds(60)
    ) {
        self.requests = requests
        self.concurrency = concurrency
        self.seed = seed
        self.faults = faults
        self.secondsPerRequest = secondsPerRequest
        self.tokenLifetime = tokenLifetime
        self.stallTimeout = stallTimeout
    }
}
