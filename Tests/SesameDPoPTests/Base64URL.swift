import Foundation

struct NotBase64URL: Error {}

/// `text` decoded from base64url without padding (the tests' own decoder).
func base64URLDecoded(_ text: some StringProtocol) throws -> Data {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    guard !text.contains("="), let data = Data(base64Encoded: base64) else { throw NotBase64URL() }
    return data
}
