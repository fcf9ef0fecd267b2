import Foundation

/// The folders sdk.yaml declares under `references: { roots: [...] }` (docs/format.md,
/// "References"), whose files become inputs of the build command so that editing a
/// referenced document (`../api/openapi.yaml`) rebuilds the SDK.
///
/// A plugin cannot link a YAML parser, so this reads the two spellings the format documents:
/// the flow list (`roots: [../api, ../shared]`) and the block list (`roots:` then one
/// `- ../api` per line), with or without quotes. A root it cannot read is only a missed
/// input: the generator itself reads sdk.yaml and refuses what is outside the roots.
enum ReferenceRoots {
    static func roots(inSDKFile text: String) -> [String] {
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("references:") }) else { return [] }
        var block = [lines[start]]
        for line in lines[(start + 1)...] {
            if let first = line.first, first != " ", first != "#" { break }
            block.append(line)
        }
        let joined = block.joined(separator: "\n")
        guard let range = joined.range(of: "roots:") else { return [] }
        let rest = joined[range.upperBound...].trimmingCharacters(in: .whitespaces)
        if rest.hasPrefix("[") {
            guard let end = rest.firstIndex(of: "]") else { return [] }
            return rest[rest.index(after: rest.startIndex)..<end].split(separator: ",").map(unquoted).filter { !$0.isEmpty }
        }
        var roots: [String] = []
        for line in rest.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard trimmed.hasPrefix("- ") else { break }
            roots.append(unquoted(trimmed.dropFirst(2)))
        }
        return roots.filter { !$0.isEmpty }
    }

    private static func unquoted(_ text: Substring) -> String {
        var value = text.trimmingCharacters(in: .whitespaces)
        if let comment = value.range(of: " #") { value = String(value[..<comment.lowerBound]) }
        return value.trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
    }

    /// Every regular file below each root of `schema`'s sdk.yaml, hidden files aside.
    static func files(for schema: URL) -> [URL] {
        guard let text = try? String(contentsOf: schema.appending(path: "sdk.yaml"), encoding: .utf8) else { return [] }
        var files: [URL] = []
        for root in roots(inSDKFile: text) {
            let folder = schema.appending(path: root, directoryHint: .isDirectory).standardizedFileURL
            guard
                let enumerator = FileManager.default.enumerator(
                    at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
            else { continue }
            files += enumerator.compactMap { $0 as? URL }.filter {
                (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            }
        }
        return files
    }
}
