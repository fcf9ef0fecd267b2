import ArgumentParser
import Foundation
import SesameGenerator

/// `sesame grammar --json-schema` / `--markdown`: the format's JSON Schema, or the key
/// tables of docs/format.md, rendered from the generator's grammar table, on standard
/// output.
struct GrammarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grammar",
        abstract: "Prints the schema format's grammar as a JSON Schema (draft 2020-12) or as markdown tables.",
        discussion: """
            The keys each YAML mapping accepts, their types, defaults, rules and meanings live in
            one table in the generator; this prints it as the JSON Schema editors use
            (--json-schema), or as one markdown table per mapping between
            `<!-- grammar: <mapping> -->` and `<!-- /grammar -->` markers (--markdown). Same
            table, same bytes. docs/sesame-format.schema.json and the marked regions of
            docs/format.md are this output: `make grammar` rewrites them and `make check` fails
            when they are stale.
            Example: sesame grammar --json-schema > docs/sesame-format.schema.json
            """
    )

    @Flag(name: .customLong("json-schema"), help: "Print the JSON Schema.")
    var jsonSchema = false

    @Flag(help: "Print one markdown table per mapping, each between its region markers.")
    var markdown = false

    func validate() throws {
        if jsonSchema == markdown { throw ValidationError("Give one of '--json-schema' and '--markdown'") }
    }

    func run() throws {
        let text = jsonSchema ? FormatJSONSchema.render() : FormatMarkdown.render()
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
