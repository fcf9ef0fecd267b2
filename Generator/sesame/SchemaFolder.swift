import Foundation
import ArgumentParser
import SesameGenerator

/// Reads a schema folder: every `.yaml` and `.yml` file below it, except `released/`
/// (the released schema and store snapshots that `sesame release` writes) and `.references/`
/// (a released copy's files from outside the folder, read only as a `$ref` names them).
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
            if relative.hasPrefix("released/") || relative == "released" || relative == ReferencedFiles.outsideFolder {
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
        // Each file read and compared on every core: thousands of files for a large schema.
        let fulls = files.map { (path as NSString).appendingPathComponent($0.path) }
        let compared = try Self.concurrentMap(files.indices) { index -> Change? in
            guard let data = FileManager.default.contents(atPath: fulls[index]) else {
                return Change(path: fulls[index], kind: .created, contents: files[index].contents)
            }
            return data == Data(files[index].contents.utf8)
                ? nil : Change(path: fulls[index], kind: .modified, contents: files[index].contents)
        }
        var changes = compared.compactMap { $0 }
        let expected = Set(fulls.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
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

    /// Writes and removes the changed files. Each file is written to a temporary file beside
    /// it and renamed over it, so a reader never sees half a file, but without `fsync`
    /// (Foundation's `.atomic` syncs every file, which made writing 2,000 files cost more than
    /// generating them): generated code is regenerated, not recovered. Folders are created
    /// once each, then the files written on every core.
    ///
    /// It never writes through a symbolic link: the output folder and every folder below it
    /// must be real folders (``checkNoSymbolicLink(upTo:)``; its parents may be links, as
    /// `/tmp` is on macOS), a temporary file is created with `O_CREAT | O_EXCL | O_NOFOLLOW`,
    /// and a generated file that is a link is replaced by the file, never written through.
    func apply(_ changes: [Change]) throws {
        let manager = FileManager.default
        let folders = Set(changes.map { ($0.path as NSString).deletingLastPathComponent })
        for folder in folders.sorted() {
            try checkNoSymbolicLink(upTo: folder)
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try checkNoSymbolicLink(upTo: folder)
        }
        _ = try Self.concurrentMap(changes.indices) { index in
            let change = changes[index]
            if let contents = change.contents {
                try Self.replace(change.path, with: contents)
            } else {
                try FileManager.default.removeItem(atPath: change.path)
            }
        }
    }

    /// Throws when the output folder, or a folder between it and `folder`, is a symbolic
    /// link: writing there would write wherever the link points.
    func checkNoSymbolicLink(upTo folder: String) throws {
        let root = URL(fileURLWithPath: path).standardizedFileURL.path
        let target = URL(fileURLWithPath: folder).standardizedFileURL.path
        guard target == root || target.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { return }
        var current = root
        let below = target.dropFirst(root.count).split(separator: "/")
        for component in [Substring("")] + below {
            if !component.isEmpty { current = (current as NSString).appendingPathComponent(String(component)) }
            var status = stat()
            guard lstat(current, &status) == 0 else { return }  // not there yet: created as a folder
            if status.st_mode & S_IFMT == S_IFLNK {
                throw SymbolicLinkRefusal(path: current)
            }
        }
    }

    /// Writes `contents` to a new temporary file in the same folder, then renames it to `path`
    /// (which replaces a symbolic link at `path` rather than following it). The temporary
    /// file is created with `O_EXCL | O_NOFOLLOW`: whatever is at its name (a file left by a
    /// crashed run, a link planted there) is removed first, never opened. With `mode`, the
    /// new file gets those permission bits (a user's file keeps its own); with `sync`, its
    /// bytes reach the disk (`fsync`) before the rename, so a crash leaves the old file or
    /// the new one, never an empty one.
    static func replace(_ path: String, with contents: String, mode: mode_t? = nil, sync: Bool = false) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(".\((path as NSString).lastPathComponent).sesame-tmp")
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var descriptor = open(temporary, flags, 0o666)
        if descriptor < 0, errno == EEXIST || errno == ELOOP {
            // `unlink` removes a link itself, never what it points to.
            unlink(temporary)
            descriptor = open(temporary, flags, 0o666)
        }
        guard descriptor >= 0 else { throw Self.error("cannot create \(temporary)") }
        var bytes = contents
        let written = bytes.withUTF8 { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        let kept = mode.map { fchmod(descriptor, $0) == 0 } ?? true
        let synced = !sync || fsync(descriptor) == 0
        let closed = close(descriptor) == 0
        guard written, kept, synced, closed, rename(temporary, path) == 0 else {
            let failure = Self.error("cannot write \(path)")
            unlink(temporary)
            throw failure
        }
    }

    private static func error(_ message: String) -> NSError {
        NSError(
            domain: NSPOSIXErrorDomain, code: Int(errno),
            userInfo: [NSLocalizedDescriptionKey: "\(message): \(String(cString: strerror(errno)))"])
    }

    /// `transform` of each index, run on every core; the first error is rethrown.
    static func concurrentMap<T: Sendable>(_ indices: Range<Int>, _ transform: @Sendable (Int) throws -> T) throws -> [T] {
        let results = ConcurrentResults<T>(count: indices.count)
        DispatchQueue.concurrentPerform(iterations: indices.count) { offset in
            do { results.set(offset, try transform(indices.lowerBound + offset)) } catch { results.fail(error) }
        }
        return try results.values()
    }
}

/// The output folder, or a folder below it, is a symbolic link: `generate` writes nothing.
struct SymbolicLinkRefusal: Error, CustomStringConvertible {
    let path: String
    var description: String {
        "refusing to write into \(path): it is a symbolic link (sesame generate never writes through one)"
    }
}

/// The results of `OutputFolder.concurrentMap`, behind a lock.
private final class ConcurrentResults<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [T?]
    private var failure: (any Error)?

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: T) { lock.withLock { results[index] = value } }
    func fail(_ error: any Error) { lock.withLock { if failure == nil { failure = error } } }

    func values() throws -> [T] {
        try lock.withLock {
            if let failure { throw failure }
            return results.map { $0! }
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
