import Testing

@testable import SesameGenerator

/// The byte path that `SwiftName` takes for ASCII names against the Unicode path every name
/// used to take: the same words and identifiers for every ASCII name.
@Suite struct SwiftNameTests {
    /// Names that exercise every split: separators, case changes after lower case and after
    /// digits, runs of capitals, leading digits, control characters and CR LF (one Swift
    /// `Character`), and names with no letter at all.
    static let names = [
        "", "_", "__", "a", "A", "9", "token_response", "TokenResponse", "tokenResponse", "HTTPServer", "userID",
        "user_ID_2fa", "2fa", "9Lives", "x-request-id", "session.revoked", "a b\tc", "line\r\nbreak", "ABC123def",
        "a1B2c3D", "--", "*/", "$ref", "Model400", "kind", "_private", "trailing_", "\u{7F}del",
    ]

    @Test(arguments: names) func asciiWordsAndIdentifiersAreTheUnicodeOnes(_ name: String) {
        #expect(SwiftName.isASCII(name))
        #expect(SwiftName.words(name) == SwiftName.unicodeWords(name))
        #expect(SwiftName.identifier(name) == SwiftName.unicodeIdentifier(name))
    }

    /// Every string of up to three characters drawn from a set covering each class of ASCII
    /// byte the two paths tell apart, then 20,000 random printable ASCII names.
    @Test func everyShortAndManyRandomASCIINamesAgree() {
        let alphabet: [Character] = ["a", "z", "A", "Z", "0", "9", "_", "-", ".", " ", "\t", "$", "\u{7F}", "\u{01}"]
        var names: [String] = [""]
        for length in 1...3 {
            names += names.filter { $0.count == length - 1 }.flatMap { prefix in alphabet.map { prefix + String($0) } }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let length = Int.random(in: 1...12, using: &generator)
            names.append(String((0..<length).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator))) }))
        }
        var mismatches: [String] = []
        for name in names
        where SwiftName.asciiWords(name) != SwiftName.unicodeWords(name)
            || SwiftName.identifier(name) != SwiftName.unicodeIdentifier(name)
        {
            mismatches.append(name)
        }
        #expect(mismatches.count == 0, "the first: \(mismatches.prefix(10))")
    }

    @Test func nonASCIINamesTakeTheUnicodePath() {
        #expect(!SwiftName.isASCII("naïve"))
        #expect(SwiftName.words("naïveUser") == ["naïve", "User"])
        // Decomposed é (e + U+0301) is composed, as before.
        #expect(SwiftName.identifier("cafe\u{301}") == "café")
    }
}
