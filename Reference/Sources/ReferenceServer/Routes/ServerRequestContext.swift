import Hummingbird

/// The request context of every route: Hummingbird's core storage, plus a way to drop the
/// connection for the "close the connection" failure injection.
struct ServerRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Closes the request's connection without answering.
    let closeConnection: @Sendable () async -> Void

    init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        let channel = source.channel
        self.closeConnection = { try? await channel.close() }
    }
}
