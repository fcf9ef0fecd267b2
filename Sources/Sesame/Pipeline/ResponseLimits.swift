import Foundation

/// How many bytes of a response ``StreamingURLSessionTransport`` may hold, set by the
/// service around each request it sends (a task-local value, so that it reaches the
/// transport through any middleware). The transport counts bytes as URLSession delivers
/// them, before anyone buffers them, and fails the body with ``ResponseLimitExceeded`` as
/// soon as a limit is passed, cancelling the request: a 1 GiB body or an endless one costs
/// at most the limit, whatever reads it and however slowly.
struct ResponseLimits: Sendable, Equatable {
    /// The largest body, in bytes; nil for a stream read as it comes (server-sent events),
    /// whose size is bounded by `unread` and by the reader's own limits.
    var total: Int?
    /// The most bytes received and not yet read by the body's reader.
    var unread: Int

    /// The limits of the request being sent; nil outside the service (the transport's own
    /// default applies).
    @TaskLocal static var current: ResponseLimits?
}

/// A response body passed one of its ``ResponseLimits``: the transport stopped reading it
/// and cancelled the request.
struct ResponseLimitExceeded: Error, Sendable, Equatable, CustomStringConvertible {
    /// The limit passed, in bytes.
    let limit: Int
    /// Whether the body's reader fell behind (more than `limit` bytes received and not yet
    /// read) rather than the body being larger than `limit`.
    let unread: Bool

    var description: String {
        unread
            ? "more than \(limit) bytes arrived that were not read yet"
            : "the response is larger than \(limit) bytes"
    }
}
