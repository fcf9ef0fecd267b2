import HTTPTypes

extension HTTPField.Name {
    /// `Pragma`, sent with `no-cache` on token responses (RFC 6749 §5.1).
    static let pragma = HTTPField.Name("Pragma")!
    /// `Last-Event-ID`, sent by a reconnecting event-stream client.
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
