import Foundation
import OpenAPIRuntime

/// The bytes of a server-sent-events stream, failing once an event grows past a limit: the
/// bytes since the blank line that ended the previous event (an event's lines, a line that
/// never ends, or lines that never make a blank one). The decoder behind it
/// (swift-openapi-runtime's `asDecodedServerSentEvents()`) keeps a line and an event whole
/// until they end, so without this a server that never ends a line grows the client
/// without bound.
struct BoundedEventBytes<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element == ArraySlice<UInt8> {
    typealias Element = ArraySlice<UInt8>
    let base: Base
    /// The most bytes an event may hold, line terminators not counted.
    let limit: Int
    /// The request's name, for the error.
    let operation: String

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        let operation: String
        var scanner = EventSizeScanner()

        /// The next chunk as it arrived.
        /// - Throws: ``SesameError/decoding(operation:reason:)`` once an event is larger than
        ///   the limit; what the stream throws.
        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let chunk = try await base.next() else { return nil }
            guard scanner.scan(chunk, limit: limit) else {
                throw SesameError.decoding(
                    operation: operation, reason: "$: an event of the stream is larger than \(limit) bytes")
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), limit: limit, operation: operation)
    }
}

/// Counts the bytes of the current server-sent event across chunks. Lines end with CRLF,
/// LF or CR (WHATWG HTML, "Parsing an event stream"); an empty line ends the event.
struct EventSizeScanner: Sendable {
    /// Bytes of the current event, terminators not counted.
    private(set) var eventSize = 0
    /// Whether nothing but a terminator came since the last line ended.
    private var lineIsEmpty = true
    /// Whether the last byte was a CR, whose LF (if it comes next) ends no other line.
    private var afterCR = false

    /// Adds `bytes`; false once the event holds more than `limit` bytes.
    mutating func scan(_ bytes: ArraySlice<UInt8>, limit: Int) -> Bool {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n") where afterCR:
                afterCR = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                afterCR = byte == UInt8(ascii: "\r")
                if lineIsEmpty { eventSize = 0 }
                lineIsEmpty = true
            default:
                afterCR = false
                lineIsEmpty = false
                eventSize += 1
                if eventSize > limit { return false }
            }
        }
        return true
    }
}
