import Foundation
import Testing
@testable import SesameGenerator

/// Names with quotes, backslashes, line breaks, comment markers, `#if`, interpolation
/// syntax, keywords and non-ASCII: the generated text holds each only in escaped form (the
/// fixture Tests/Fixtures/OddNames/Schema, compiled and run by OddNamesTests), names that
/// must be identifiers are refused at their position, and names that sanitize alike either
/// stay distinct or are refused.
@Suite struct OddNameTests {
    static let fixture = ReferenceSchema.root.appendingPathComponent("Tests/Fixtures/OddNames/Schema")

    static func fixtureSources() throws -> [SchemaSource] {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.path).filter { $0.hasSuffix(".yaml") }.sorted()
        return try names.map { name in
            SchemaSource(
                path: "OddNames/\(name)", relativePath: name,
                text: try String(contentsOf: fixture.appendingPathComponent(name), encoding: .utf8))
        }
    }

    // MARK: The fixture's generated text

    @Test func noSchemaTextEndsALiteralOrACommentOrBecomesCode() throws {
        let generation = GeneratorPipeline.generate(try Self.fixtureSources())
        #expect(generation.diagnostics.isEmpty, "\(generation.diagnostics)")
        #expect(generation.files.count > 10)
        for file in generation.files {
            let lexed = LexedSwift(file.contents)
            #expect(lexed.problems.isEmpty, "\(file.path): \(lexed.problems)")
            for marker in ["/*", "*/", "#", "\"\"\""] {
                #expect(!lexed.code.contains(marker), "\(file.path): \(marker) outside a literal or a comment")
            }
            for comment in lexed.comments {
                #expect(!comment.contains("*/") && !comment.contains("/*"), "\(file.path): \(comment)")
            }
            #expect(Set(lexed.interpolations).isSubset(of: ["methodName", "stepName"]), "\(file.path): \(lexed.interpolations)")
        }
    }

    /// Every wire name of the fixture is a string literal of exactly its scalars somewhere
    /// in the generated code.
    @Test(arguments: [
        "quote\"d", "back\\slash", "line\nbreak", "*/", "/*", "#if DEBUG", "\"\"\"", "\\(x)", "$0", "",
        "cafe\u{301}s", "名前", "🎉", "\u{202E}evil", "line\u{2028}separator\u{2029}", "\u{2028}", "a-b", "a_b", "A_B",
        "user\"id", "access\"token", "refresh\\token", "expires\nin", "err\"or", "mess\\age", "kind\"#", "quote\"d */",
        "invalid \"token\" \\", "rejected */", "grant\"type", "#endif", #"\(x) """ */ #if"#, #"""" \(x)"#, "^\\\\\\(x\\)\"$",
        #"/auth/"class"/café"#, #"/search/"q"/名前/\(x)"#, "/identities/{in}/{self}/{_}",
    ])
    func eachWireNameIsALiteralOfExactlyItsText(_ name: String) throws {
        let generation = GeneratorPipeline.generate(try Self.fixtureSources())
        let literals = Set(generation.files.flatMap { LexedSwift($0.contents).literals.map { Array($0.unicodeScalars) } })
        #expect(literals.contains(Array(name.unicodeScalars)), "\(name.debugDescription)")
    }

    @Test func descriptionsBecomeCommentLinesWithTheirMarkersBroken() throws {
        let generation = GeneratorPipeline.generate(try Self.fixtureSources())
        let odd = Fixture.model("Odd", in: generation)
        #expect(
            odd.contains(
                """
                /// Odd * /
                ///
                /// Every property has an odd JSON key.
                /// * / struct Injected {} / *
                /// \"\"\" \\(x) #warning("no")
                public struct Odd: Codable, Hashable, Sendable {
                """))
        let schema = try #require(generation.files.first { $0.path == "OddNamesSDKSchema.swift" }).contents
        #expect(schema.contains("/// Odd names * / let injected = 1 / * \"\"\" \\(injected) #if false\n/// second line third #endif\n"))
    }

    // MARK: Swift names

    @Test func namesWithNoLetterAreSpeltByCodePointWhateverTheirOrder() {
        let forward = Fixture.model(
            "X",
            in: Fixture.generate([
                "x.yaml":
                    "X: { type: object, properties: { \"*/\": { type: string }, \"/*\": { type: string }, \"🎉\": { type: integer } } }\n"
            ]))
        let backward = Fixture.model(
            "X",
            in: Fixture.generate([
                "x.yaml":
                    "X: { type: object, properties: { \"🎉\": { type: integer }, \"/*\": { type: string }, \"*/\": { type: string } } }\n"
            ]))
        for text in [forward, backward] {
            #expect(text.contains(#"self._2A_2F = try container.decodeIfPresentNotNull(String.self, forKey: "*/")"#))
            #expect(text.contains(#"self._2F_2A = try container.decodeIfPresentNotNull(String.self, forKey: "/*")"#))
            #expect(text.contains(#"self._1F389 = try container.decodeIfPresentNotNull(Int.self, forKey: "🎉")"#))
        }
    }

    @Test func decomposedLettersMakeComposedIdentifiers() {
        let text = Fixture.model(
            "X", in: Fixture.generate(["x.yaml": "X: { type: object, properties: { \"cafe\\u0301s\": { type: string } } }\n"]))
        #expect(text.contains("public var caf\u{E9}s: String?"))
        #expect(text.contains("self.caf\u{E9}s = try container.decodeIfPresentNotNull(String.self, forKey: \"cafe\u{301}s\")"))
    }

    @Test func keywordsThatMeanTheMetatypeRenameTypesAndTables() {
        let models =
            "Type: { type: string, enum: [a] }\nX: { type: object, properties: { Self: { type: object, properties: { a: { type: string } } } } }\n"
        let store = "persistence:\n  1:\n    Type: { id: { type: text, primaryKey: true } }\n"
        let generation = Fixture.generate(["x.yaml": models, "store.yaml": store])
        #expect(Fixture.model("TypeModel", in: generation).contains("public enum TypeModel:"))
        #expect(Fixture.model("X", in: generation).contains("public var selfValue: X.SelfModel?"))
        let records = Fixture.file("Store/Records.swift", in: generation)
        #expect(records.contains("public struct TypeRecord:"))
        #expect(records.contains(#"public static let databaseTableName = "Type""#))
    }

    @Test func aNestedTypeNeverShadowsATopLevelModel() {
        let models =
            "X:\n  type: object\n  properties:\n    user: { type: object, properties: { a: { type: string } } }\n    owner: { $ref: \"#/User\" }\n"
        let text = Fixture.model("X", in: Fixture.generate(["x.yaml": models]))
        #expect(text.contains("public var user: X.User2?"))
        #expect(text.contains("public var owner: User?"))
    }

    @Test func membersEveryGeneratedTypeHasAreNotTakenByCases() {
        let models = "E: { type: string, enum: [rawValue, allKnownCases, unknown, self, init] }\n"
        let errors = "errors:\n  self: { status: 400, category: client }\n  description: { status: 400, category: client }\n"
        // `unknown` is renamed first, so the event really named `unknownEvent` is the later one.
        let events = "events:\n  wireName: {}\n  unknown: {}\n  unknownEvent: {}\n"
        let auth = Fixture.auth + "\nmethods:\n  description: { steps: [ { request: POST /a, response: Token } ] }\n"
        let generation = Fixture.generate(["e.yaml": models, "errors.yaml": errors, "events.yaml": events, "auth.yaml": auth])
        #expect(
            Fixture.model("E", in: generation).contains(
                "case rawValueValue\n    case allKnownCasesValue\n    case unknownValue\n    case selfValue\n    case initValue\n"))
        #expect(Fixture.file("Errors.swift", in: generation).contains("case selfError(ServerErrorResponse)"))
        #expect(Fixture.file("Errors.swift", in: generation).contains("case descriptionError(ServerErrorResponse)"))
        let eventFile = Fixture.file("Events.swift", in: generation)
        #expect(eventFile.contains("case wireNameEvent\n    case unknownEvent\n    case unknownEventEvent\n"))
        #expect(Fixture.file("Methods.swift", in: generation).contains("case descriptionMethod\n"))
    }

    // MARK: Names that must be identifiers

    static let identifierRule = "is not a valid identifier: use letters, digits and _, not starting with a digit"

    @Test func operationNamesThatAreNotIdentifiersAreRefusedAtTheirKey() {
        let auth =
            "operations:\n  me: { request: GET /me, response: User }\n  \"quote\\\"d\": { request: GET /q }\n  café: { request: GET /c }\n  \"#if\": { request: GET /i }\n"
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:3:3: error: operation 'quote\"d' \(Self.identifierRule)",
                "Schema/auth.yaml:4:3: error: operation 'café' \(Self.identifierRule)",
                "Schema/auth.yaml:5:3: error: operation '#if' \(Self.identifierRule)",
            ])
    }

    @Test func methodParameterStepNeedAndPlaceholderNamesAreRefusedAtTheirPosition() {
        let auth = """
            methods:
              "*/": { steps: [ { request: POST /a, response: Token } ] }
              m:
                parameters: { "a b": { type: string } }
                steps:
                  - { name: "#if", request: POST /b, response: Token }
                  - { name: "x", needs: ["back\\\\slash"], request: "POST /c/{a-b}", body: { f: "{#if.x}" }, response: Token }
            operations:
              me: { request: GET /me, response: User }

            """
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:2:3: error: method '*/' \(Self.identifierRule)",
                "Schema/auth.yaml:4:19: error: parameter 'a b' \(Self.identifierRule)",
                "Schema/auth.yaml:6:17: error: step name '#if' \(Self.identifierRule)",
                "Schema/auth.yaml:7:30: error: need 'back\\slash' \(Self.identifierRule)",
                "Schema/auth.yaml:7:55: error: path parameter '{a-b}' must be an identifier (letters, digits and _)",
                "Schema/auth.yaml:7:83: error: placeholder '{#if.x}' in field 'f' of the step's body must be a name or step.field",
            ])
    }

    @Test func eventAndSDKNamesThatAreNotIdentifiersAreRefused() {
        #expect(
            Fixture.printed(["events.yaml": "events:\n  \"*/\": {}\n  名前: {}\n"]) == [
                "Schema/events.yaml:2:3: error: event '*/' \(Self.identifierRule)",
                "Schema/events.yaml:3:3: error: event '名前' \(Self.identifierRule)",
            ])
        let sdk = Fixture.sdk.replacingOccurrences(of: "sdk: TestSDK", with: "sdk: \"Odd SDK\"")
        #expect(
            Fixture.printed(["sdk.yaml": sdk]) == [
                "Schema/sdk.yaml:1:6: error: sdk 'Odd SDK' must be a Swift module name: letters, digits and _, not starting with a digit"
            ])
    }

    // MARK: Names that give one Swift name

    @Test func errorCodesThatSanitizeAlikeAreRefusedButSymbolCodesStayDistinct() {
        let errors =
            "errors:\n  a-b: { status: 400, category: client }\n  a_b: { status: 400, category: client }\n  \"*/\": { status: 400, category: client }\n  \"/*\": { status: 400, category: client }\n"
        #expect(
            Fixture.printed(["errors.yaml": errors]) == [
                "Schema/errors.yaml:3:3: error: error codes 'a-b' and 'a_b' would both be the Swift case aB"
            ])
    }

    @Test func operationsAndMethodsThatSanitizeAlikeAreRefusedAtTheSecond() {
        let auth =
            Fixture.auth + """

                  a_b: { request: GET /x }
                  aB: { request: GET /y }
                methods:
                  c_d: { steps: [{ request: POST /1, response: Token }] }
                  cD: { steps: [{ request: POST /2, response: Token }] }

                """
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:4:3: error: operation 'aB' has the same Swift name as another operation",
                "Schema/auth.yaml:7:3: error: method 'cD' has the same Swift name as another method",
            ])
    }

    @Test func parametersThatSanitizeAlikeAreRefusedAtTheSecond() {
        let auth =
            Fixture.auth + """

                  find:
                    request: GET /find
                    parameters:
                      a_b: { schema: { type: string } }
                      aB: { schema: { type: string } }

                """
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:7:7: error: parameters 'a_b' and 'aB' of operation 'find' would both be the Swift parameter aB"
            ])
    }

    @Test func modelsThatSanitizeAlikeAreRefused() {
        #expect(
            Fixture.printed(["more.yaml": "Token \"Response\": { type: string }\nTokenResponse: { type: string }\n"]) == [
                "Schema/more.yaml:2:1: error: model 'TokenResponse' and model 'Token \"Response\"' would both be the Swift type TokenResponse"
            ])
    }

    @Test func stepsThatGiveOneAuthenticationInputCaseAreRefusedAtTheSecond() {
        let auth =
            Fixture.auth + """

                methods:
                  a_b:
                    steps:
                      - { request: POST /1, response: Token }
                      - { name: c, request: POST /2, response: Token }
                  a:
                    steps:
                      - { request: POST /3, response: Token }
                      - { name: b_c, request: POST /4, response: Token }

                """
        #expect(
            Fixture.printed(["auth.yaml": auth]) == [
                "Schema/auth.yaml:11:9: error: step 'b_c' of 'a' and step 'c' of 'a_b' would both be the Swift case AuthenticationInput.aBC"
            ])
    }

    @Test func keysEqualUpToUnicodeNormalizationAreOneKey() {
        // Swift strings (and so JSON keys in Codable) compare `é` and `e` + U+0301 equal.
        let models = "X:\n  type: object\n  properties:\n    caf\u{E9}: { type: string }\n    cafe\u{301}: { type: string }\n"
        #expect(Fixture.printed(["x.yaml": models]) == ["Schema/x.yaml:5:5: error: duplicate key 'café'; a mapping may name each key once"])
    }

    @Test func aDiagnosticQuotingALineBreakStaysOnOneLine() {
        let events = "events:\n  a: { wireName: \"x\\ny\\u2028\" }\n  b: { wireName: \"x\\ny\\u2028\" }\n"
        #expect(
            Fixture.printed(["events.yaml": events]) == [
                "Schema/events.yaml:3:18: error: wire name 'x\\ny\\u{2028}' is already used by the event at line 2"
            ])
    }

    @Test func storeNamesAreSQLNamesAndKeepClearOfRecordMembers() {
        let store = "persistence:\n  1:\n    Note:\n      id: { type: text, primaryKey: true }\n      self_: text\n      \"a-b\": text\n"
        #expect(
            Fixture.printed(["store.yaml": store]) == [
                "Schema/store.yaml:5:7: error: column 'self_' would be the property 'self', which every record already has",
                "Schema/store.yaml:6:7: error: column name 'a-b' must start with a letter or _ and contain only letters, digits and _",
            ])
    }
}

/// A generated Swift file as a small lexer of the forms the generator writes sees it:
/// `//` comments, one-line string literals with escapes and `\(…)` interpolations, and
/// code. Anything else (a line break or invisible character in a literal, an unknown
/// escape, a multi-line literal) is a problem.
struct LexedSwift {
    private(set) var literals: [String] = []
    private(set) var interpolations: [String] = []
    private(set) var comments: [String] = []
    private(set) var code = ""
    private(set) var problems: [String] = []

    init(_ text: String) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar != "\n", Self.isInvisible(scalar) { problems.append("invisible U+\(String(scalar.value, radix: 16)) at \(index)") }
            if scalar == "/", at(1) == "/" {
                var comment = ""
                while index < scalars.count, scalars[index] != "\n" {
                    comment.unicodeScalars.append(scalars[index])
                    index += 1
                }
                comments.append(comment)
            } else if scalar == "\"" {
                if at(1) == "\"", at(2) == "\"" { problems.append("multi-line literal at \(index)") }
                index += 1
                literals.append(lexLiteral(scalars, &index))
            } else {
                code.unicodeScalars.append(scalar)
                index += 1
            }
        }
    }

    /// Reads a literal's content after its opening quote, up to and past its closing quote.
    private mutating func lexLiteral(_ scalars: [Unicode.Scalar], _ index: inout Int) -> String {
        var value = ""
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\"": return value
            case "\n":
                problems.append("line break in a literal: \(value)")
                return value
            case "\\":
                guard index < scalars.count else { break }
                let escape = scalars[index]
                index += 1
                switch escape {
                case "n": value += "\n"
                case "r": value += "\r"
                case "t": value += "\t"
                case "0": value += "\0"
                case "\"", "\\", "'": value.unicodeScalars.append(escape)
                case "u":
                    var hex = ""
                    guard index < scalars.count, scalars[index] == "{" else {
                        problems.append("bad \\u in \(value)")
                        continue
                    }
                    index += 1
                    while index < scalars.count, scalars[index] != "}" {
                        hex.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    index += 1
                    if let number = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(number) {
                        value.unicodeScalars.append(decoded)
                    } else {
                        problems.append("bad \\u{\(hex)}")
                    }
                case "(":
                    var expression = ""
                    while index < scalars.count, scalars[index] != ")" {
                        expression.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    index += 1
                    interpolations.append(expression)
                default:
                    problems.append("unknown escape \\\(escape) in \(value)")
                }
            default:
                if Self.isInvisible(scalar) { problems.append("invisible U+\(String(scalar.value, radix: 16)) in a literal") }
                value.unicodeScalars.append(scalar)
            }
        }
        problems.append("unterminated literal: \(value)")
        return value
    }

    /// The scalars the generator must never write as themselves (control characters, line
    /// separators, the byte order mark, bidirectional controls); written out here rather
    /// than taken from the generator, so that this check does not share its mistakes.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
