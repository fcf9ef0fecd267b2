import Foundation
import Testing

@testable import SesameGenerator

/// docs/format.md's key tables are rendered from the grammar table, which owns each key's
/// type, default, rules and meaning; the JSON Schema's descriptions say the same.
@Suite struct FormatMarkdownTests {
    @Test func aTableRowCarriesTheKeysTypeDefaultAndMeaning() throws {
        let table = FormatMarkdown.table(Grammar.refresh)
        let leeway = try #require(Grammar.refresh.key("leeway"))
        #expect(table.hasPrefix("| key of `credential.refresh` | type | default / required | meaning |\n"))
        #expect(table.contains("| `leeway` | [duration](#durations) | default `60s` | \(leeway.meaning) |\n"))
        #expect(table.contains("| `request` | [request line](#request-lines) | required | "))
        // An inline mapping's keys are rows of its holder's table, right after their key.
        let rows = table.split(separator: "\n").map { $0.split(separator: "|").first.map(String.init) ?? "" }
        let window = try #require(rows.firstIndex(of: " `window` "))
        #expect(rows[window + 1] == " `window.maxRefreshes` " && rows[window + 2] == " `window.per` ")
        #expect(!FormatMarkdown.render().contains("<!-- grammar: window -->"))
    }

    @Test func rulesSayWhatAKeyNeedsExcludesOrMakesRequired() {
        let authorizationServer = FormatMarkdown.table(Grammar.authorizationServer)
        #expect(authorizationServer.contains("| `issuerInResponses` | boolean | default `false`; needs `issuer` | "))
        #expect(FormatMarkdown.table(Grammar.step).contains("| `browser` | mapping (`browser`) | not with `device` | "))
        #expect(FormatMarkdown.table(Grammar.step).contains("| model name | required on the last step | "))
        #expect(FormatMarkdown.table(Grammar.rejected).contains("| `body` | mapping | required unless `wwwAuthenticate` | "))
        #expect(FormatMarkdown.table(Grammar.errorsFile).contains("| `errors.<name>.status` | integer, 400–599 | required | "))
    }

    @Test func aPipeInAMeaningIsEscaped() throws {
        let table = FormatMarkdown.table(Grammar.sdkFile)
        #expect(table.contains("`enums: open \\| closed`"))
        for line in table.split(separator: "\n") {
            let cells = line.replacingOccurrences(of: "\\|", with: "").filter { $0 == "|" }.count
            #expect(cells == 5, "\(line)")
        }
    }

    @Test func theJSONSchemaDescriptionSaysTheDefaultAndTheRules() throws {
        let data = Data(FormatJSONSchema.render().utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let definitions = try #require(root["$defs"] as? [String: Any])
        let sdk = try #require(definitions["sdkFile"] as? [String: Any])
        let properties = try #require(sdk["properties"] as? [String: Any])
        let server = try #require(properties["authorizationServer"] as? [String: Any])
        let keys = try #require(server["properties"] as? [String: Any])
        let issuerInResponses = try #require(keys["issuerInResponses"] as? [String: Any])
        let description = try #require(issuerInResponses["description"] as? String)
        #expect(description.hasPrefix(try #require(Grammar.authorizationServer.key("issuerInResponses")).meaning))
        #expect(description.hasSuffix(" Default: `false`. Needs `issuer`."))
        #expect(server["dependentRequired"] as? [String: [String]] == ["issuerInResponses": ["issuer"]])
    }

    /// `make check` compares too (scripts/grammar-tables.py --check); this catches a table
    /// edited by hand, or a key changed without `make grammar`, in `swift test` as well.
    @Test func theCommittedKeyTablesAreTheTablesRendering() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/format.md").standardizedFileURL
        let document = try String(contentsOf: path, encoding: .utf8)
        let mappings = Dictionary(uniqueKeysWithValues: FormatMarkdown.mappings().map { ($0.name, $0) })
        var shown: [String] = []
        var rest = document[...]
        // Markers on lines of their own, as scripts/grammar-tables.py reads them (the prose
        // may quote one in backticks).
        while let marker = rest.range(of: "\n<!-- grammar: ") {
            let open = rest.index(after: marker.lowerBound)..<marker.upperBound
            let nameEnd = try #require(rest[open.upperBound...].range(of: " -->"))
            let name = String(rest[open.upperBound..<nameEnd.lowerBound])
            let close = try #require(rest[open.lowerBound...].range(of: "<!-- /grammar -->"), "region '\(name)' is not closed")
            let mapping = try #require(mappings[name], "docs/format.md shows '\(name)', which is no mapping of the grammar")
            #expect(!mapping.inline, "'\(name)' is inline: its keys are rows of its holder's table")
            #expect(
                String(rest[open.lowerBound..<close.upperBound]) == FormatMarkdown.region(mapping),
                "docs/format.md's table of '\(name)' is stale: run `make grammar`")
            shown.append(name)
            rest = rest[close.upperBound...]
        }
        #expect(Set(shown).count == shown.count, "a mapping has two tables: \(shown)")
        #expect(shown.count >= 20, "\(shown)")
    }
}
