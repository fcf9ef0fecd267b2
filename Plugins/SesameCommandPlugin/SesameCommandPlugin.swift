import Foundation
import PackagePlugin

/// `swift package generate-sdk`: writes a target's generated SDK into the package, to be
/// committed and reviewed, with `--check` to fail when the committed files are stale.
///
///     swift package --allow-writing-to-package-directory generate-sdk [--target T]… [--check]
///         [--schema PATH] [--output PATH] [--format text|json|github]
///
/// By default each target's YAML is read from `<target>/Schema/` and the Swift is written to
/// `<target>/Generated/`; with no `--target`, every target that has both folders is done (the
/// first run names its target).
/// `--schema` and `--output` (relative to the package) override both, for one target only: the
/// reference SDK of this package is `--target ReferenceSDK --schema Schema`.
/// It runs `sesame generate … --output …` and so writes only files whose bytes change and removes
/// generated files the schema no longer produces.
@main
struct SesameCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        if extractor.extractFlag(named: "help") > 0 {
            print(Self.usage)
            return
        }
        let targetNames = extractor.extractOption(named: "target")
        let check = extractor.extractFlag(named: "check") > 0
        let schemaOption = extractor.extractOption(named: "schema")
        let outputOption = extractor.extractOption(named: "output")
        let format = extractor.extractOption(named: "format")
        guard extractor.remainingArguments.isEmpty else {
            throw PluginError("unexpected argument(s) \(extractor.remainingArguments.joined(separator: " "))\n\(Self.usage)")
        }
        guard schemaOption.count <= 1, outputOption.count <= 1, format.count <= 1 else {
            throw PluginError("--schema, --output and --format may each be given once")
        }

        let package = context.package.directoryURL
        let targets: [SourceModuleTarget]
        if targetNames.isEmpty {
            // Only targets generated before: a target that uses the build plugin has a Schema/
            // folder too, but never a Generated/ one, and must not get one.
            targets = context.package.targets.compactMap { $0 as? SourceModuleTarget }.filter {
                Self.isDirectory($0.directoryURL.appending(path: "Schema"))
                    && Self.isDirectory($0.directoryURL.appending(path: "Generated"))
            }
            if targets.isEmpty {
                throw PluginError(
                    "no target of \(context.package.displayName) has both a Schema/ and a Generated/ folder; name the target with --target (and --schema if its YAML is elsewhere)"
                )
            }
        } else {
            targets = try context.package.targets(named: targetNames).map { target in
                guard let module = target as? SourceModuleTarget else { throw PluginError("target '\(target.name)' has no sources") }
                return module
            }
        }
        if !schemaOption.isEmpty || !outputOption.isEmpty, targets.count != 1 {
            throw PluginError("--schema and --output need exactly one target (name it with --target)")
        }

        let sesame = try context.tool(named: "sesame").url
        var failed: [String] = []
        for target in targets {
            let schema =
                schemaOption.first.map { Self.resolve($0, against: package) }
                ?? target.directoryURL.appending(path: "Schema", directoryHint: .isDirectory)
            let output =
                outputOption.first.map { Self.resolve($0, against: package) }
                ?? target.directoryURL.appending(path: "Generated", directoryHint: .isDirectory)
            guard Self.isDirectory(schema) else {
                throw PluginError(
                    "target '\(target.name)': no schema folder at \(schema.path(percentEncoded: false)); put its YAML there or pass --schema"
                )
            }
            var arguments = ["generate", Self.display(schema, in: package), "--output", Self.display(output, in: package)]
            if check { arguments.append("--check") }
            if let format = format.first { arguments += ["--format", format] }

            let process = Process()
            process.executableURL = sesame
            process.arguments = arguments
            // Relative paths in diagnostics (Sources/T/Schema/models.yaml:3:5: error: …), as in
            // `swift run sesame` from the package folder.
            process.currentDirectoryURL = package
            try process.run()
            process.waitUntilExit()
            if process.terminationReason != .exit || process.terminationStatus != 0 { failed.append(target.name) }
        }
        if !failed.isEmpty {
            let what = check ? "generated code is stale or the schema is invalid" : "generation failed"
            throw PluginError(
                "\(what) for \(failed.joined(separator: ", "))"
                    + (check ? "; run `swift package --allow-writing-to-package-directory generate-sdk` and commit the result" : ""))
        }
    }

    static let usage = """
        USAGE: swift package --allow-writing-to-package-directory generate-sdk [--target <target>]… [--check]
                                                                             [--schema <path>] [--output <path>]
                                                                             [--format text|json|github]
          --target   a target whose SDK to generate (repeatable); default: every target with Schema/ and Generated/
          --check    write nothing; fail when the generated files are not up to date
          --schema   the schema folder, relative to the package (default: <target>/Schema)
          --output   the folder of generated files, relative to the package (default: <target>/Generated)
          --format   how diagnostics are printed: text, json or github
        """

    static func resolve(_ path: String, against package: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : package.appending(path: path)
    }

    /// `path` relative to the package folder when it is inside it.
    static func display(_ url: URL, in package: URL) -> String {
        let full = url.standardizedFileURL.path(percentEncoded: false)
        var base = package.standardizedFileURL.path(percentEncoded: false)
        if !base.hasSuffix("/") { base += "/" }
        guard full.hasPrefix(base) else { return full }
        var relative = String(full.dropFirst(base.count))
        while relative.hasSuffix("/") { relative.removeLast() }
        return relative.isEmpty ? "." : relative
    }

    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path(percentEncoded: false), isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
