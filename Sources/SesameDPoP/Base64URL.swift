import Foundation

extension Data {
    /// The bytes in base64url (RFC 4648 §5) without padding, as JOSE writes binary values
    /// (RFC 7515 §2).
    var base64URLEncodedWithoutPadding: String {
        var text = base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}

extension Sequence<UInt8> {
    /// The bytes in base64url without padding.
    var base64URLEncodedWithoutPadding: String { Data(self).base64URLEncodedWithoutPadding }
}
