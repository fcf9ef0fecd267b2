import ArgumentParser
import BenchmarkTargets
import Foundation

/// `sesame-bench references`: the whole `sesame validate` command, as a process, on two
/// schemas whose `$ref`s name many files: what a team that references a large published
/// document waits for, and what a hostile one costs.
///
/// - **chain**: the synthetic schema (50 models) plus a chain of `allOf` `$ref`s across
///   `files` small JSON documents (`chain/0.json` names `chain/1.json`, …): each round of
///   reading finds one more file, so the cost of a round must be what it adds.
/// - **aliases**: forty YAML documents (`$schema` at the top: read only through `$ref`s)
///   chained the same way, each with aliases that expand a schema to about 94,000 nodes,
///   under the 100,000 a file could add alone but over what the files of one schema may add
///   together: refused at the second.
struct ReferencesBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "references",
        abstract: "Times sesame validate on a chain of $refs across many files and on documents full of aliases.")

    @Option(help: "How many files the chain spans.")
    var files = 1000

    @Option(help: "The sesame binary (default: the release build, as `generate` finds it).")
    var sesame: String?

    struct Result: Sendable {
        var files: Int
        var chain: GenerateCommandTiming.Run
        var aliases: GenerateCommandTiming.Run
        /// The documents' size in all, in bytes.
        var chainBytes: Int
        var aliasBytes: Int

        var checks: [TargetCheck] {
            Targets.references(
                chainFiles: files, chainSeconds: chain.seconds, chainValid: chain.status == 0, aliasSeconds: aliases.seconds,
                aliasMegabytes: aliases.maximumResidentKilobytes / 1024, aliasRefused: aliases.status == 1)
        }

        var jsonLine: String {
            "{\"benchmark\": \"references\", \"chain\": {\"files\": \(files), \"bytes\": \(chainBytes), \"run\": \(chain.jsonFields)}, "
                + "\"aliases\": {\"files\": 40, \"bytes\": \(aliasBytes), \"run\": \(aliases.jsonFields)}}"
        }
    }

    func run() throws {
        let result = try Self.measure(files: files, sesame: GenerateCommandTiming.binary(sesame))
        print(result.jsonLine)
        for check in result.checks { print("  \(check)") }
    }

    /// Writes both schemas and runs `sesame validate` on each once.
    static func measure(files: Int, sesame: URL) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: sesame.path) else {
            throw GenerateCommandTiming.CommandMissing(path: sesame.path)
        }
        let directory = try StoreBench.Directory()
        defer { directory.remove() }
        let chain = directory.url.appendingPathComponent("Chain", isDirectory: true)
        let chainBytes = try write(chain, head: "chain/0.json", folder: "chain", documents: chainDocuments(files))
        let aliases = directory.url.appendingPathComponent("Aliases", isDirectory: true)
        let aliasBytes = try write(aliases, head: "docs/0.yaml#/$defs/ok", folder: "docs", documents: aliasDocuments(40))
        return Result(
            files: files, chain: try GenerateCommandTiming.run(sesame, ["validate", chain.path]),
            aliases: try GenerateCommandTiming.run(sesame, ["validate", aliases.path]), chainBytes: chainBytes,
            aliasBytes: aliasBytes)
    }

    /// The synthetic schema in `folder`, a model that names `head`, and `documents` in
    /// `folder/subfolder`; returns the documents' size in bytes.
    static func write(_ folder: URL, head: String, folder subfolder: String, documents: [(name: String, text: String)]) throws -> Int {
        try SyntheticSchema(models: 50).write(to: folder)
        let models = folder.appendingPathComponent("models.yaml")
        let handle = try FileHandle(forWritingTo: models)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\nReferencedHead:\n  type: object\n  properties:\n    link: { $ref: \"\(head)\" }\n".utf8))
        try handle.close()
        let documentsFolder = folder.appendingPathComponent(subfolder, isDirectory: true)
        try FileManager.default.createDirectory(at: documentsFolder, withIntermediateDirectories: true)
        for document in documents {
            try Data(document.text.utf8).write(to: documentsFolder.appendingPathComponent(document.name))
        }
        return documents.reduce(0) { $0 + $1.text.utf8.count }
    }

    /// `0.json` … : each an `allOf` of the next, the last an object.
    static func chainDocuments(_ count: Int) -> [(name: String, text: String)] {
        (0..<count).map { index in
            let text =
                index + 1 < count
                ? #"{"allOf":[{"$ref":"\#(index + 1).json"}]}"#
                : #"{"type":"object","properties":{"end":{"type":"string"}}}"#
            return ("\(index).json", text)
        }
    }

    /// `0.yaml` … : a schema `ok` that names the next file's and `big`, an object whose
    /// properties are aliases of aliases of … a string schema, which aliases expand to about
    /// 94,000 nodes: under what one file may add, but every later stage walks the expansion.
    static func aliasDocuments(_ count: Int) -> [(name: String, text: String)] {
        let keys = "abcdefghijklmnopqrs".map(String.init)
        return (0..<count).map { index in
            var lines = [
                "$schema: https://json-schema.org/draft/2020-12/schema", "$defs:", "  ok:", "    type: object", "    properties:",
                "      big: { $ref: \"#/$defs/big\" }",
            ]
            if index + 1 < count { lines.append("      next: { $ref: \"\(index + 1).yaml#/$defs/ok\" }") }
            lines.append("  s0: &s0 { type: string }")
            for level in 1...3 {
                let properties = keys.prefix(10).map { "\($0): *s\(level - 1)" }.joined(separator: ", ")
                lines.append("  s\(level): &s\(level) { type: object, properties: { \(properties) } }")
            }
            lines.append("  big: { type: object, properties: { \(keys.map { "\($0): *s3" }.joined(separator: ", ")) } }")
            return ("\(index).yaml", lines.joined(separator: "\n") + "\n")
        }
    }
}
