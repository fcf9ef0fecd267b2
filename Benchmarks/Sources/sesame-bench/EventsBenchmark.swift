import ArgumentParser
import BenchmarkTargets
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
@_spi(Generated) import Sesame
import SesameTestSupport
@_spi(Generated) import SesameDescription

/// `sesame-bench events --subscribers N --events M`: M server-sent events, read by an
/// `AuthenticationService` from an in-memory event stream and fanned out to N `events()`
/// streams; every subscriber must get every event exactly once, in order.
struct EventsBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Fans server-sent events out to N subscribers of an AuthenticationService and prints one JSON line.",
        discussion: """
            The service signs in against the in-memory back-end, opens its event stream (an in-memory \
            body of `id: k`, `event: tick`, `data: {"seq":k}` events, decoded as a generated SDK \
            decodes them) and delivers each event to N subscribers of `events()`, the AsyncStream \
            API of the README. Each subscriber checks the sequence numbers.

            Prints {"subscribers": N, "events": M, "paced": …, "delivered": …, "expected": N × M, \
            "lost": …, "out_of_order": …, "unexpected": …, "seconds": …, "events_per_second": …, \
            "deliveries_per_second": …}: `seconds` runs from the first event sent to the last event \
            delivered; `lost` counts events a subscriber never got, `out_of_order` repeated or \
            reordered ones, `unexpected` anything else it received.

            A subscriber more than eventBufferCapacity (256) events behind loses its oldest ones by \
            design. By default the stream is paced: the next chunk of the body is produced only when \
            every subscriber is close enough behind that no buffer can overflow, so the figure is \
            the fan-out's throughput without loss. --unpaced sends as fast as the service reads and \
            shows what slow subscribers lose. Exits 1 unless every subscriber got every event once, \
            in order, and nothing else; --unpaced --rate R sends R events a second, as a back-end \
            would, whether subscribers keep up or not: with at most 10 subscribers, which keep up, \
            a loss still exits 1. Unpaced without a rate, or with more subscribers, losses are a \
            figure and it exits 1 only when an event arrived out of order or unexpected. Paced with 100 subscribers or more, it \
            also exits 1 when a delivery costs 1 µs or more.
            Example: swift run -c release sesame-bench events --subscribers 1000 --events 100000
            """
    )

    @Option(help: "How many subscribers of events().")
    var subscribers = 1000

    @Option(help: "How many server-sent events.")
    var events = 100_000

    @Flag(help: "Send events as fast as the service reads them, without waiting for slow subscribers; drops are then reported as lost.")
    var unpaced = false

    @Option(help: "With --unpaced: send this many events a second, as a back-end would, whether subscribers keep up or not.")
    var rate: Double?

    func validate() throws {
        guard subscribers >= 1, events >= 1 else { throw ValidationError("--subscribers and --events must be at least 1") }
        if let rate, !unpaced || rate <= 0 { throw ValidationError("--rate \(rate): needs --unpaced and a positive rate") }
    }

    func run() async throws {
        let result = try await Self.measure(subscribers: subscribers, events: events, paced: !unpaced, rate: rate)
        print(result.jsonLine)
        let verdict = Verdict(result.checks)
        if !verdict.passed {
            FileHandle.standardError.write(Data("\(verdict.report)\n".utf8))
            throw ExitCode(verdict.exitStatus)
        }
    }

    struct Result: Sendable {
        var subscribers: Int
        var events: Int
        var paced: Bool
        /// Unpaced at a fixed rate (events a second); nil: paced, or as fast as the service reads.
        var rate: Double?
        var tally: Tally
        var seconds: Double

        var expected: Int { subscribers * events }
        /// Every subscriber got every event exactly once, in order, and nothing else.
        var lossless: Bool { losslessCheck.met }

        /// "1000 × 2000 paced", "10 × 2000 unpaced at 5000/s".
        var run: String { "\(subscribers) × \(events) \(paced ? "paced" : "unpaced")\(rate.map { " at \(Int($0))/s" } ?? "")" }

        var losslessCheck: TargetCheck {
            Targets.eventsLossless(
                run: run, expected: expected, delivered: tally.delivered, lost: tally.lost, outOfOrder: tally.outOfOrder,
                unexpected: tally.unexpected)
        }

        /// This run's targets (``Targets/events(run:subscribers:paced:expected:delivered:lost:outOfOrder:unexpected:seconds:)``).
        var checks: [TargetCheck] {
            Targets.events(
                run: run, subscribers: subscribers, paced: paced, rated: rate != nil, expected: expected, delivered: tally.delivered,
                lost: tally.lost,
                outOfOrder: tally.outOfOrder, unexpected: tally.unexpected, seconds: seconds)
        }

        /// Wall time per delivery, in microseconds.
        var microsecondsPerDelivery: Double { seconds / Double(max(1, tally.delivered)) * 1e6 }

        var jsonLine: String {
            func format(_ value: Double) -> String { String(format: "%.6f", value) }
            return "{\"subscribers\": \(subscribers), \"events\": \(events), \"paced\": \(paced), "
                + "\"rate\": \(rate.map { "\(Int($0))" } ?? "null"), \"delivered\": \(tally.delivered), "
                + "\"expected\": \(expected), \"lost\": \(tally.lost), \"out_of_order\": \(tally.outOfOrder), "
                + "\"unexpected\": \(tally.unexpected), \"seconds\": \(format(seconds)), "
                + "\"events_per_second\": \(Int((Double(events) / seconds).rounded())), "
                + "\"deliveries_per_second\": \(Int((Double(tally.delivered) / seconds).rounded())), "
                + "\"microseconds_per_delivery\": \(format(microsecondsPerDelivery))}"
        }
    }

    /// What subscribers received, summed over them.
    struct Tally: Sendable {
        /// Events received once, in order.
        var delivered = 0
        /// Events skipped: a later sequence number arrived first.
        var lost = 0
        /// Events whose sequence number was not above the last one received.
        var outOfOrder = 0
        /// Anything other than the current state first, then ticks.
        var unexpected = 0

        static func + (lhs: Tally, rhs: Tally) -> Tally {
            Tally(
                delivered: lhs.delivered + rhs.delivered, lost: lhs.lost + rhs.lost,
                outOfOrder: lhs.outOfOrder + rhs.outOfOrder, unexpected: lhs.unexpected + rhs.unexpected)
        }
    }

    /// The service's buffer per subscriber: the configuration's default, set explicitly so the
    /// pacing matches it.
    static let bufferCapacity = 256

    /// Signs in, subscribes every subscriber, then lets the event stream run until each has
    /// seen the last sequence number.
    static func measure(subscribers: Int, events: Int, paced: Bool, rate: Double? = nil) async throws -> Result {
        let pacer = Pacer(
            subscribers: subscribers, window: paced ? bufferCapacity : nil, chunk: bufferCapacity / 4, rate: paced ? nil : rate)
        let clock = ManualClock.followingRealTime()
        let service = AuthenticationService<EventsBenchSchema>(
            configuration: .init(
                transport: BenchBackEnd(clock: clock), now: { clock.now },
                logger: Logger(label: "sesame-bench") { _ in SwiftLogNoOpLogHandler() },
                eventBufferCapacity: bufferCapacity, receivesServerEvents: true,
                eventTransport: EventFeed(events: events, pacer: pacer)))
        _ = try await service.authenticate(with: GuestSignIn())
        var streams: [EventStream<AuthenticationEvent<EventsBenchSchema>>] = []
        for _ in 0..<subscribers { streams.append(await service.events()) }
        let tally = await withTaskGroup(of: Tally.self) { group in
            for stream in streams {
                group.addTask { await consume(stream, events: events, pacer: pacer) }
            }
            return await group.reduce(Tally(), +)
        }
        let finished = ContinuousClock.now
        await service.unauthenticate()
        let seconds = pacer.started.map { (finished - $0).seconds } ?? 0
        return Result(subscribers: subscribers, events: events, paced: paced, rate: paced ? nil : rate, tally: tally, seconds: seconds)
    }

    /// One subscriber: the current state first, then ticks 0..<events, each checked against
    /// the next sequence number expected, reporting its progress to the pacer.
    private static func consume(_ stream: EventStream<AuthenticationEvent<EventsBenchSchema>>, events: Int, pacer: Pacer) async -> Tally {
        var tally = Tally()
        var next = 0
        var iterator = stream.makeAsyncIterator()
        if case .stateChanged(.authenticated) = await iterator.next() {} else { tally.unexpected += 1 }
        pacer.ready()
        while next < events, let event = await iterator.next() {
            guard case .server(.tick(let tick)) = event else {
                tally.unexpected += 1
                continue
            }
            guard tick.seq >= next else {
                tally.outOfOrder += 1
                continue
            }
            tally.lost += tick.seq - next
            tally.delivered += 1
            pacer.advance(from: next, to: tick.seq + 1)
            next = tick.seq + 1
        }
        // A stream that ended early must not hold the event stream back.
        pacer.advance(from: next, to: events)
        return tally
    }
}

// MARK: - The schema and its event stream

/// The benchmark back-end's schema with an event stream, `GET /events`, of one event type.
enum EventsBenchSchema: SDKSchema {
    typealias Details = BenchDetails
    typealias ServerError = BenchServerError
    typealias Event = TickEvent

    static let streamRequest = RequestDescription(name: "events", method: .get, path: "/events")
    static let description: SDKDescription = {
        var description = RuntimeBench.description
        description.events = EventCatalogue(stream: streamRequest, invalidating: [])
        return description
    }()

    static func userID(of details: BenchDetails) -> String { details.uid }
    static func serverError(_ response: ServerErrorResponse) -> BenchServerError { BenchServerError(response: response) }
}

/// The benchmark's event, decoded as the generator's `Events.swift` decodes a typed event.
enum TickEvent: ServerEvent {
    /// `tick`: `{"seq": k}`, k counting from 0.
    case tick(Tick)
    case unknown(wireName: String, data: Data)

    struct Tick: Codable, Hashable, Sendable {
        var seq: Int
    }

    init(wireName: String, data: Data) {
        if wireName == "tick", let payload = try? JSONDecoder().decode(Tick.self, from: data) {
            self = .tick(payload)
        } else {
            self = .unknown(wireName: wireName, data: data)
        }
    }

    var wireName: String {
        switch self {
        case .tick: return "tick"
        case .unknown(let wireName, _): return wireName
        }
    }
}

/// The event transport: answers `GET /events` with a body of `events` ticks, produced a
/// chunk at a time as the pacer admits them. A reconnection resumes after `Last-Event-ID`.
struct EventFeed: ClientTransport {
    let events: Int
    let pacer: Pacer

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method == .get, request.path == "/events" else { return (HTTPResponse(status: .notFound), nil) }
        guard request.headerFields[.authorization] != nil else {
            return (HTTPResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: #"Bearer error="invalid_token""#]), nil)
        }
        let lastEventID = HTTPField.Name("Last-Event-ID").flatMap { request.headerFields[$0] }.flatMap { Int($0) }
        let chunks = Chunks(start: lastEventID.map { $0 + 1 } ?? 0, end: events, pacer: pacer)
        return (
            HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]),
            HTTPBody(chunks, length: .unknown, iterationBehavior: .single)
        )
    }

    /// The body: ticks `start..<end`, `pacer.chunk` events per chunk.
    struct Chunks: AsyncSequence, Sendable {
        let start: Int
        let end: Int
        let pacer: Pacer

        struct AsyncIterator: AsyncIteratorProtocol {
            var next: Int
            let end: Int
            let pacer: Pacer

            mutating func next() async -> ArraySlice<UInt8>? {
                guard next < end else { return nil }
                let last = Swift.min(end, next + pacer.chunk)
                await pacer.admit(upTo: last)
                var text = ""
                for seq in next..<last { text += "id: \(seq)\nevent: tick\ndata: {\"seq\":\(seq)}\n\n" }
                next = last
                return ArraySlice(text.utf8)
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(next: start, end: end, pacer: pacer) }
    }
}

// MARK: - Pacing

/// Holds the event stream back until every subscriber is close enough behind.
///
/// Subscribers report checkpoints: checkpoint 0 when ready (they have taken the current state
/// from their stream), checkpoint k when they have received event `k × chunk - 1`. The body
/// asks to `admit` events up to some point; with a window, that waits until every subscriber
/// has received all but `window` of them, so no subscriber ever has more than `window`
/// undelivered events and none is dropped. Without a window, it waits only for checkpoint 0,
/// and with a rate, until the events' time at that rate from the first chunk (a back-end
/// pushing at a steady rate, whether subscribers keep up or not).
final class Pacer: @unchecked Sendable {
    /// Events per chunk of the body, and between checkpoints.
    let chunk: Int
    private let window: Int?
    private let rate: Double?
    private let subscribers: Int
    private let lock = NSLock()
    /// How many subscribers reported each checkpoint that not all have reached yet.
    private var arrivals: [Int: Int] = [:]
    /// The highest checkpoint every subscriber has reached (-1: none yet).
    private var reached = -1
    private var waiter: (checkpoint: Int, continuation: CheckedContinuation<Void, Never>)?
    private var start: ContinuousClock.Instant?

    init(subscribers: Int, window: Int?, chunk: Int, rate: Double? = nil) {
        self.subscribers = subscribers
        self.window = window
        self.rate = rate
        self.chunk = max(1, chunk)
    }

    /// When the first chunk of events was admitted.
    var started: ContinuousClock.Instant? { lock.withLock { start } }

    /// A subscriber has taken the current state and waits for events.
    func ready() { arrive(at: 0) }

    /// A subscriber that had received `old` events has now received `new`.
    func advance(from old: Int, to new: Int) {
        guard new / chunk > old / chunk else { return }
        for checkpoint in (old / chunk + 1)...(new / chunk) { arrive(at: checkpoint) }
    }

    /// Waits until events up to `end` (excluded) may be sent.
    func admit(upTo end: Int) async {
        let needed = window.map { window in max(0, end - window) } ?? 0
        let checkpoint = (needed + chunk - 1) / chunk
        if lock.withLock({ reached < checkpoint }) {
            await withCheckedContinuation { continuation in
                let now = lock.withLock {
                    if reached >= checkpoint { return true }
                    waiter = (checkpoint, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
        let first = lock.withLock {
            if start == nil { start = .now }
            return start!
        }
        if let rate {
            let due = first + .seconds(Double(max(0, end - chunk)) / rate)
            try? await Task.sleep(until: due, clock: .continuous)
        }
    }

    private func arrive(at checkpoint: Int) {
        let resumed: CheckedContinuation<Void, Never>? = lock.withLock {
            let count = arrivals[checkpoint, default: 0] + 1
            guard count == subscribers else {
                arrivals[checkpoint] = count
                return nil
            }
            arrivals[checkpoint] = nil
            reached = max(reached, checkpoint)
            guard let waiter, waiter.checkpoint <= reached else { return nil }
            self.waiter = nil
            return waiter.continuation
        }
        resumed?.resume()
    }
}
