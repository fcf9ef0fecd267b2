import Foundation
import PackagePlugin

/// Generates a target's Sesame SDK from its YAML at build time.
///
/// Convention: the YAML lives in a `Schema/` folder inside the target (`Sources/<Target>/Schema/`),
/// laid out as `sesame generate` expects (`sdk.yaml`, `auth.yaml`, `models.yaml`, …, and
/// `released/`). The generated Swift goes to the plugin's work folder and is compiled into the
/// target; nothing is written into the package.
///
/// Why one build command writing one file: a build command must name its outputs before it runs,
/// and the generator writes one file per model, so the set of files depends on the YAML. Reading
/// the YAML here would duplicate the generator's naming rules (plugins cannot link a YAML parser or
/// the generator library). `sesame generate --single-file PATH` writes the whole SDK into one file
/// at a path fixed in advance, so the command's outputs are known without reading the schema, and
/// its inputs are every file of the schema folder, so it reruns exactly when one of them changes.
///
/// A prebuild command would not need the outputs in advance, but SwiftPM refuses prebuild commands
/// whose executable is built from source ("a prebuild command cannot use executables built from
/// source"); `sesame` is an executable target of this package, so only a build command can run it.
@main
struct SesameBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let schema = target.directoryURL.appending(path: "Schema", directoryHint: .isDirectory)
        // The files of the roots sdk.yaml declares for referenced documents are inputs too.
        let inputs = try Self.schemaFiles(in: schema, target: target.name) + ReferenceRoots.files(for: schema)
        let output = context.pluginWorkDirectoryURL
            .appending(path: "GeneratedSources", directoryHint: .isDirectory)
            .appending(path: "\(target.name)+Sesame.swift")
        let sesame = try context.tool(named: "sesame").url
        return [
            .buildCommand(
                displayName: "Generating the Sesame SDK of \(target.name) from \(inputs.count) schema file(s)",
                executable: sesame,
                arguments: ["generate", schema.path(percentEncoded: false), "--single-file", output.path(percentEncoded: false)],
                // The generator itself too: a newer sesame regenerates even if the YAML did not change.
                inputFiles: inputs + [sesame],
                outputFiles: [output]
            )
        ]
    }

    /// Every file below `schema`: the YAML, and `released/` (the store snapshots that
    /// `sesame generate --output` records and the generator reads back), hidden files aside.
    /// Editing, adding or removing one reruns the command. A file that is an input of a plugin
    /// command counts as handled, so the target needs no `exclude:` for them.
    static func schemaFiles(in schema: URL, target: String) throws -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: schema.path(percentEncoded: false), isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            throw PluginError(
                "target '\(target)' uses SesameBuildPlugin but has no Schema/ folder: put its YAML (sdk.yaml, auth.yaml, models.yaml, …) in \(schema.path(percentEncoded: false))"
            )
        }
        guard
            let enumerator = FileManager.default.enumerator(
                at: schema, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]
            )
        else {
            throw PluginError("\(schema.path(percentEncoded: false)) cannot be read")
        }
        let files = enumerator.compactMap { $0 as? URL }.filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
        guard files.contains(where: { ["yaml", "yml"].contains($0.pathExtension) }) else {
            throw PluginError("target '\(target)': \(schema.path(percentEncoded: false)) holds no .yaml files")
        }
        return files.sorted { $0.path < $1.path }
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
