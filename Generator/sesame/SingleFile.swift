import Foundation
import SesameGenerator

/// Every generated file in one Swift file, for `sesame generate --single-file`.
///
/// The SwiftPM build plugin must name a command's outputs before the command runs, but the
/// generator writes one file per model, so the set of files depends on the schema. One file
/// whose path is fixed lets the plugin declare its output without reading the YAML.
///
/// Each file's leading `import` lines are gathered, de-duplicated and sorted at the top; the
/// rest of each file follows under a `// MARK: -` comment naming the file it would have been.
/// Files keep the generator's order, so the result is as deterministic as the files are.
enum SingleFile {
    static func merge(_ files: [GeneratedFile]) -> String {
        var imports: Set<String> = []
        var bodies: [(path: String, lines: [Substring])] = []
        for file in files {
            var lines = file.contents.split(separator: "\n", omittingEmptySubsequences: false)[...]
            if lines.first.map(String.init) == GeneratedFile.header { lines.removeFirst() }
            // The leading block: blank lines and imports, up to the first comment or declaration
            // (which may be a doc comment, so comments stay).
            while let line = lines.first {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    lines.removeFirst()
                } else if isImport(trimmed) {
                    imports.insert(trimmed)
                    lines.removeFirst()
                } else {
                    break
                }
            }
            while let last = lines.last, last.trimmingCharacters(in: .whitespaces).isEmpty { lines.removeLast() }
            bodies.append((file.path, Array(lines)))
        }
        var text = GeneratedFile.header + "\n"
        text += "// Every file of the SDK in one, as `sesame generate --single-file` writes it.\n"
        if !imports.isEmpty { text += "\n" + imports.sorted().joined(separator: "\n") + "\n" }
        for body in bodies {
            text += "\n// MARK: - \(body.path)\n\n"
            if !body.lines.isEmpty { text += body.lines.joined(separator: "\n") + "\n" }
        }
        return text
    }

    /// `import X`, `@testable import X`, `@preconcurrency import X`, `import struct X.Y`…
    static func isImport(_ line: String) -> Bool {
        var words = line.split(separator: " ")[...]
        while let word = words.first, word.hasPrefix("@") { words.removeFirst() }
        if let word = words.first, ["public", "internal", "package", "private", "fileprivate"].contains(word) { words.removeFirst() }
        return words.first == "import"
    }

    /// Writes `contents` at `path` unless the file already holds exactly those bytes, so that an
    /// unchanged SDK does not make the build recompile. Returns whether the file changed.
    @discardableResult
    /// - Throws: ``SymbolicLinkRefusal`` when `path` is a symbolic link (never written through).
    static func write(_ contents: String, to path: String) throws -> Bool {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK { throw SymbolicLinkRefusal(path: path) }
        let data = Data(contents.utf8)
        if FileManager.default.contents(atPath: path) == data { return false }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        return true
    }
}
