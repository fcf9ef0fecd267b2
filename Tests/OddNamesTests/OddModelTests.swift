import Foundation
import OddNamesSDK
import Sesame
import Testing
@_spi(Generated) import SesameDescription

/// `Odd`, whose every property has an odd JSON key (Tests/Fixtures/OddNames/Schema/models.yaml):
/// each key decodes into its own property and encodes back exactly as the schema spells it.
@Suite struct OddModelTests {
    /// Each optional string property and its JSON key, written here independently of the
    /// generator: quotes, backslashes, line breaks, comment markers, `#if`, interpolation
    /// syntax, keywords, non-ASCII, names that differ only by case or punctuation.
    static var stringProperties: [(key: String, property: WritableKeyPath<Odd, String?>)] {
        [
            ("*/", \._2A_2F), ("/*", \._2F_2A), ("\\(x)", \.x),
            ("class", \.`class`), ("Type", \.type), ("protocol", \.`protocol`), ("default", \.`default`), ("init", \.initValue),
            ("_", \.`_`), ("$0", \._0), ("description", \.descriptionValue), ("additionalProperties", \.additionalProperties),
            ("café", \.café), ("cafe\u{301}s", \.cafés), ("名前", \.名前), ("🎉", \._1F389), ("עברית", \.עברית),
            ("\u{202E}evil", \.evil), ("line\u{2028}separator\u{2029}", \.lineSeparator),
            ("a-b", \.aB), ("a_b", \.aB_), ("aB", \.aB__), ("a b", \.aB_4), ("A-B", \.aB_5), ("name", \.name), ("Name", \.name_),
            ("", \.__), ("note", \.note), ("note\u{200D}", \.note_), ("no\u{200B}te\u{FE0F}", \.note__),
        ]
    }

    /// The `const` properties named like the locals of the generated decoder, and their values.
    static var constants: [String: Any] {
        [
            "container": "c", "container_": "c2", "decoder": "d", "extra": "e", "known": "k", "kept": 1, "key": "k",
            "value": "v", "index": "i", "item": 1,
        ]
    }

    /// The keys every encoded `Odd` has: the property with a default and the const ones.
    static var alwaysWritten: Set<[UInt32]> {
        Set([WireKeys.scalars("back\\slash"), WireKeys.scalars("\"\"\"")] + constants.keys.map(WireKeys.scalars))
    }

    /// A JSON object with every odd key, each value naming its key, plus the required ones.
    static func everyKey() -> [String: Any] {
        var members: [String: Any] = [
            "user\"id": "u", "quote\"d": "q", "line\nbreak": 7, "#if DEBUG": true, "\"\"\"": "\"\"\" \\(x)",
            "back\\slash": "value of back\\slash",
        ]
        for (key, _) in stringProperties { members[key] = "value of \(key)" }
        members["\\(x)"] = "\\(x)\""
        members.merge(constants) { _, constant in constant }
        return members
    }

    @Test func constantsNamedLikeTheDecodersLocalsAreCheckedWhileDecoding() throws {
        // Issue 29: these constants were locals of init(from:) named like its own
        // (`container`, `extra`, …): the SDK did not compile. Each is now checked in a local of its own.
        let odd = try JSONDecoder().decode(Odd.self, from: WireKeys.object(Self.everyKey()))
        #expect(odd.container == "c" && odd.container_ == "c2" && odd.decoder == "d" && odd.extra == "e")
        #expect(odd.known == "k" && odd.kept == 1 && odd.key == "k" && odd.value == "v" && odd.index == "i")
        for (key, wrong) in [("container", "x" as Any), ("decoder", "x"), ("extra", "x"), ("known", "x"), ("kept", 2), ("value", "w")] {
            var members = Self.everyKey()
            members[key] = wrong
            #expect(throws: SchemaViolation.self, "\(key)") { try JSONDecoder().decode(Odd.self, from: WireKeys.object(members)) }
        }
    }

    @Test func eachOddKeyDecodesIntoItsOwnProperty() throws {
        let odd = try JSONDecoder().decode(Odd.self, from: WireKeys.object(Self.everyKey()))
        #expect(odd.userId == "u")
        #expect(odd.quoteD == "q")
        #expect(odd.lineBreak == 7)
        #expect(odd.ifDEBUG == true)
        #expect(odd.x == "\\(x)\"")
        #expect(odd.backSlash == "value of back\\slash")
        for (key, property) in Self.stringProperties where key != "\\(x)" {
            #expect(odd[keyPath: property] == "value of \(key)", "key \(key.debugDescription)")
        }
        #expect(odd.additionalProperties_.isEmpty, "no declared key is taken for an extra one")
    }

    @Test func encodingWritesEveryKeyScalarForScalar() throws {
        let members = Self.everyKey()
        let odd = try JSONDecoder().decode(Odd.self, from: WireKeys.object(members))
        let encoded = try JSONEncoder.sesame.encode(odd)
        #expect(try WireKeys.keys(of: encoded) == Set(members.keys.map(WireKeys.scalars)))
        let decodedMembers = try WireKeys.members(of: encoded)
        #expect(decodedMembers[WireKeys.scalars("cafe\u{301}s")] == .string("value of cafe\u{301}s"))
        #expect(decodedMembers[WireKeys.scalars("line\nbreak")] == .integer(7))
        #expect(try JSONDecoder().decode(Odd.self, from: encoded) == odd)
    }

    @Test func namesThatSanitizeAlikeStayDistinct() throws {
        let odd = try JSONDecoder().decode(
            Odd.self,
            from: WireKeys.object([
                "user\"id": "u", "quote\"d": "q", "a-b": "1", "a_b": "2", "aB": "3", "name": "4", "Name": "5", "*/": "6", "/*": "7",
            ]))
        #expect([odd.aB, odd.aB_, odd.aB__, odd.name, odd.name_, odd._2A_2F, odd._2F_2A] == ["1", "2", "3", "4", "5", "6", "7"])
    }

    @Test func anUndeclaredOddKeyIsKeptAsAnExtraAndWrittenBack() throws {
        let members: [String: Any] = ["user\"id": "u", "quote\"d": "q", "extra \"*/\"\n": "kept"]
        let odd = try JSONDecoder().decode(Odd.self, from: WireKeys.object(members))
        #expect(odd.additionalProperties_ == ["extra \"*/\"\n": "kept"])
        #expect(try WireKeys.keys(of: JSONEncoder.sesame.encode(odd)) == Set(members.keys.map(WireKeys.scalars)).union(Self.alwaysWritten))
    }

    @Test func theDefaultAndTheConstKeepTheirQuotesBackslashesAndInterpolationSyntax() throws {
        let odd = try JSONDecoder().decode(Odd.self, from: WireKeys.object(["user\"id": "u", "quote\"d": "q"]))
        #expect(odd.backSlash == #"\(x) """ */ #if"#)
        #expect(odd._22_22_22 == #"""" \(x)"#)
        let members = try WireKeys.members(of: JSONEncoder.sesame.encode(odd))
        #expect(members[WireKeys.scalars("back\\slash")] == .string(#"\(x) """ */ #if"#))
        #expect(members[WireKeys.scalars("\"\"\"")] == .string(#"""" \(x)"#))
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(Odd.self, from: WireKeys.object(["user\"id": "u", "quote\"d": "q", "\"\"\"": "\"\"\""]))
        }
    }

    @Test func thePatternWithBackslashesAndAQuoteIsTheSchemasRegex() throws {
        let base: [String: Any] = ["user\"id": "u", "quote\"d": "q"]
        // The schema's pattern is ^\\\(x\)"$ : a backslash, "(x)" and a quote.
        let matching = try JSONDecoder().decode(Odd.self, from: WireKeys.object(base.merging(["\\(x)": #"\(x)""#]) { $1 }))
        #expect(matching.x == #"\(x)""#)
        for wrong in [#"(x)""#, #"\(x)"#, #"\\(x)""#] {
            #expect(throws: (any Error).self, "\(wrong)") {
                try JSONDecoder().decode(Odd.self, from: WireKeys.object(base.merging(["\\(x)": wrong]) { $1 }))
            }
        }
    }

    @Test func nestedTypesNamedAfterKeywordsAndAfterATopLevelModelAreTheirOwn() throws {
        let members: [String: Any] = [
            "user\"id": "u", "quote\"d": "q",
            "self": ["Self": ["Type": "t"]],
            "self object": ["Type": 3],
            "Token Response": ["inner": "i"],
            "token": ["access\"token": "a", "refresh\\token": "r", "expires\nin": 60],
            "nested": ["quote\"d": "n"],
        ]
        let odd = try JSONDecoder().decode(Odd.self, from: WireKeys.object(members))
        #expect(odd.selfValue?.selfValue?.type == "t")
        #expect(odd.selfObject?.type == 3)
        #expect(odd.tokenResponse == Odd.TokenResponse2(inner: "i"))
        #expect(odd.token == TokenResponse(accessToken: "a", refreshToken: "r", expiresIn: 60))
        #expect(odd.nested?.quoteD == "n")
        #expect(try WireKeys.keys(of: JSONEncoder.sesame.encode(odd)) == Set(members.keys.map(WireKeys.scalars)).union(Self.alwaysWritten))
    }
}
