/// How often ``InMemoryBackEnd`` injects each random fault, as probabilities from 0 to 1.
public struct FaultRates: Sendable {
    /// Any request fails in the transport (`URLError.networkConnectionLost`) before it
    /// reaches the back-end: sign-ins, refreshes and operations alike.
    public var transportError: Double
    /// A refresh is answered 503 `unavailable`, half the time with `Retry-After: 1`.
    public var refreshTransient: Double
    /// A refresh is answered 400 `invalid_grant` and its session revoked: the service
    /// becomes `invalid`, and must sign in again.
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
    /// An operation (not a sign-in or a refresh) that the back-end applied and answered with
    /// a success loses its answer on the way back: the client sees `URLError.networkConnectionLost`
    /// although the note was created. The client must not send it again on its own.
    public var lostResponse: Double

    /// Creates fault rates.
    public init(
        transportError: Double, refreshTransient: Double, refreshTerminal: Double, rejection: Double,
        redirect: Double, latency: Double, maximumLatency: Duration, lostResponse: Double = 0
    ) {
        self.transportError = transportError
        self.refreshTransient = refreshTransient
        self.refreshTerminal = refreshTerminal
        self.rejection = rejection
        self.redirect = redirect
        self.latency = latency
        self.maximumLatency = maximumLatency
        self.lostResponse = lostResponse
    }

    /// 10% transport errors, 1% of refreshes failing (half transient, half terminal), 2%
    /// rejected operations (with the soak's default clock, enough to press on the schema's
    /// refresh window), 0.5% cross-origin redirects, a quarter of requests delayed up to 2 ms,
    /// 1% of successful operations losing their answer after the back-end applied them.
    public static let standard = FaultRates(
        transportError: 0.10, refreshTransient: 0.005, refreshTerminal: 0.005,
        rejection: 0.02, redirect: 0.005, latency: 0.25, maximumLatency: .milliseconds(2), lostResponse: 0.01)

    /// No faults at all.
    public static let none = FaultRates(
        transportError: 0, refreshTransient: 0, refreshTerminal: 0, rejection: 0,
        redirect: 0, latency: 0, maximumLatency: .zero)
}
