import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle

/// `GET /events`: the user's server-sent events (events.yaml), with `Last-Event-ID` replay
/// and `: ping` heartbeats.
struct EventRoutes {
    let state: ReferenceServerState
    let resources: ResourceRoutes
    let heartbeatInterval: Duration

    private enum Output: Sendable {
        case event(ServerSentEvent)
        case heartbeat
    }

    func register(on router: Router<ServerRequestContext>) {
        router.get("/events") { request, _ in
            let session = try await resources.authenticate(request)
            let lastEventID = request.headers[.lastEventID].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            let subscription = await state.subscribe(uid: session.uid, lastEventID: lastEventID)
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-cache"
            return Response(status: .ok, headers: headers, body: body(for: subscription))
        }
    }

    private func body(for subscription: EventSubscription) -> ResponseBody {
        let interval = heartbeatInterval
        return ResponseBody { writer in
            // An opening comment sends the head at once, so clients see the stream is open.
            let opening = ": stream open\n\n" + subscription.replay.map(\.wireText).joined()
            try await writer.write(ByteBuffer(string: opening))
            let (outputs, continuation) = AsyncStream.makeStream(of: Output.self)
            // On graceful shutdown the stream ends cleanly, so the server does not wait on it.
            try await withGracefulShutdownHandler {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await event in subscription.events {
                            continuation.yield(.event(event))
                        }
                        continuation.finish()
                    }
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: interval)
                            continuation.yield(.heartbeat)
                        }
                    }
                    defer { group.cancelAll() }
                    for await output in outputs {
                        switch output {
                        case .event(let event): try await writer.write(ByteBuffer(string: event.wireText))
                        case .heartbeat:
                            try await writer.write(ByteBuffer(string: ": ping\n\n"))
                            await state.noteHeartbeatWritten()
                        }
                    }
                }
            } onGracefulShutdown: {
                continuation.finish()
            }
            try await writer.finish(nil)
        }
    }
}
