import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime

/// Reads the back-end's server-sent-events stream and reconnects when it ends or fails,
/// sending `Last-Event-ID` so that the back-end can replay what was missed.
///
/// It holds no reference to the service: `deliver` returns false once the service is gone,
/// which ends the reader.
struct EventStreamReader: Sendable {
    /// Opens the stream once; the reader reads its body.
    let connect: @Sendable (_ lastEventID: String?) async throws -> HTTPBody?
    /// Hands an event to the service; false when the service is gone.
    let deliver: @Sendable (ServerSentEvent) async -> Bool
    let reconnectDelay: Duration
    let logger: Logger
    /// The largest event, its lines up to the blank line that ends it: past it the stream
    /// fails (``SesameError/decoding(operation:reason:)``, logged) and the reader reconnects.
    var maximumEventSize = 8 << 20

    /// Reads until the task is cancelled or the service goes away.
    func run() async {
        var lastEventID: String?
        var delay = reconnectDelay
        while !Task.isCancelled {
            do {
                if let body = try await connect(lastEventID) {
                    let bounded = BoundedEventBytes(base: body, limit: maximumEventSize, operation: "events")
                    let bytes = HTTPBody(bounded, length: .unknown, iterationBehavior: .single)
                    for try await event in bytes.asDecodedServerSentEvents() {
                        if let id = event.id { lastEventID = id }
                        if let retry = event.retry { delay = .milliseconds(retry) }
                        guard event.event != nil || event.data != nil else { continue }
                        guard await deliver(event) else { return }
                    }
                }
                logger.debug("the event stream ended; reconnecting")
            } catch is CancellationError {
                return
            } catch {
                logger.notice("the event stream failed: \(Self.describe(error)); reconnecting")
            }
            do { try await Task.sleep(for: delay) } catch { return }
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? SesameError { return error.description }
        return TransportFailure.describe(error)
    }
}
