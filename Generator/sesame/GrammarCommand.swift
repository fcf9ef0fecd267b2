import ArgumentParser
import Foundation
import SesameGenerator

/// `sesame grammar --json-schema`: the format's JSON Schema, rendered from the generator's
/// grammar table, on standard output.
struct GrammarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grammar",
        abstract: "Prints the schema format's grammar as a JSON Schema (draft 2020-12).",
        discussion: """
            The keys each YAML mapping accepts, their types and meanings live in one table in the
            generator; this prints it as the JSON Schema editors use. Same table, same bytes.
            docs/sesame-format.schema.json is this output: `make grammar` rewrites it and
            `make check` fails when it is stale.
            Example: sesame grammar --json-schema > docs/sesame-format.schema.json
            """
    )

    @Flag(name: .customLong("json-schema"), help: "Print the JSON Schema (the only form for now).")
    var jsonSchema = false

    func validate() throws {
        if !jsonSchema { throw ValidationError("Missing expected flag '--json-schema'") }
    }

    func run() throws {
        FileHandle.standardOutput.write(Data(FormatJSONSchema.render().utf8))
    }
}
