import Foundation
import ArgumentParser
import SesameGenerator

/// Reads a schema folder: every `.yaml` and `.yml` file below it, except `released/`
/// (the released schema and store snapshots that `sesame release` writes).
enum SchemaFolder {
    static func read(_ path: String) throws -> [SchemaSource] {
        let root = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(path) is not a folder")
        }
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw ValidationError("\(path) cannot be read")
        }
        var sources: [SchemaSource] = []
        let base = root.standardizedFileURL.path
        for case let url as URL in enumerator {
            let full = url.standardizedFileURL.path
            guard full.hasPrefix(base) else { continue }
            var relative = String(full.dropFirst(base.count))
            while relative.hasPrefix("/") { relative.removeFirst() }
            if relative.hasPrefix("released/") || relative == "released" {
                enumerator.skipDescendants()
                continue
            }
            guard ["yaml", "yml"].contains(url.pathExtension) else { continue }
            let data = try Data(contentsOf: url)
            let text = String(decoding: data, as: UTF8.self)
            let display = path.hasSuffix("/") ? path + relative : path + "/" + relative
            sources.append(SchemaSource(path: display, relativePath: relative, text: text))
        }
        if sources.isEmpty { throw ValidationError("\(path) holds no .yaml files") }
        return sources.sorted { $0.relativePath < $1.relativePath }
    }
}

extension SchemaFolder {
    /// The recorded store snapshots under `released/`, by path relative to the schema folder.
    static func readReleased(_ path: String) throws -> [String: String] {
        let root = URL(fileURLWithPath: path).appendingPathComponent("released")
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [:] }
        let base = URL(fileURLWithPath: path).standardizedFileURL.path
        var files: [String: String] = [:]
        for case let url as URL in enumerator where url.pathExtension == "json" {
            var relative = String(url.standardizedFileURL.path.dropFirst(base.count))
            while relative.hasPrefix("/") { relative.removeFirst() }
            files[relative] = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        }
        return files
    }
}

/// The folder of generated files: what would change, and applying it.
struct OutputFolder {
    let path: String

    struct Change {
        enum Kind: String { case created = "would be created", modified = "would change", removed = "is stale and would be removed" }
        var path: String
        var kind: Kind
        var contents: String?
    }

    func changes(for files: [GeneratedFile]) throws -> [Change] {
        let manager = FileManager.default
        var changes: [Change] = []
        var expected: Set<String> = []
        for file in files {
            let full = (path as NSString).appendingPathComponent(file.path)
            expected.insert(URL(fileURLWithPath: full).standardizedFileURL.path)
            if let data = manager.contents(atPath: full) {
                if data != Data(file.contents.utf8) { changes.append(Change(path: full, kind: .modified, contents: file.contents)) }
            } else {
                changes.append(Change(path: full, kind: .created, contents: file.contents))
            }
        }
        if let enumerator = manager.enumerator(at: URL(fileURLWithPath: path), includingPropertiesForKeys: nil) {
            for case let url as URL in enumerator where url.pathExtension == "swift" {
                let full = url.standardizedFileURL.path
                guard !expected.contains(full), let handle = FileHandle(forReadingAtPath: full) else { continue }
                let head = handle.readData(ofLength: GeneratedFile.header.utf8.count)
                try? handle.close()
                if head == Data(GeneratedFile.header.utf8) { changes.append(Change(path: full, kind: .removed, contents: nil)) }
            }
        }
        return changes.sorted { $0.path < $1.path }
    }

    func apply(_ changes: [Change]) throws {
        let manager = FileManager.default
        for change in changes {
            if let contents = change.contents {
                let directory = (change.path as NSString).deletingLastPathComponent
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: URL(fileURLWithPath: change.path), options: .atomic)
            } else {
                try manager.removeItem(atPath: change.path)
            }
        }
    }
}

/// Prints diagnostics to standard error (text) or standard output (json, github).
enum DiagnosticPrinter {
    static func print(_ diagnostics: [Diagnostic], format: OutputFormat) {
        switch format {
        case .text:
            for diagnostic in diagnostics { FileHandle.standardError.write(Data("\(diagnostic)\n".utf8)) }
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let data = (try? encoder.encode(diagnostics)) ?? Data("[]".utf8)
            Swift.print(String(decoding: data, as: UTF8.self))
        case .github:
            for diagnostic in diagnostics {
                let level = diagnostic.severity == .note ? "notice" : diagnostic.severity.rawValue
                let location = diagnostic.location.map { "file=\($0.file),line=\($0.line),col=\($0.column)" } ?? ""
                let message = diagnostic.message.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
                    .replacingOccurrences(of: "\n", with: "%0A")
                Swift.print("::\(level) \(location)::\(message)")
            }
        }
    }
}
