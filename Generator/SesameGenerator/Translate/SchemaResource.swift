import Foundation
import Yams

/// URIs of schema resources (JSON Schema 2020-12 core §8.2, §9): every file of the schema
/// folder, and every referenced document, has a retrieval URI of its own, under a root that
/// stands for the schema folder; `$id` and `$ref` are resolved against it (RFC 3986 §5).
///
/// The root is deep enough that a path leaving the folder (`../api/openapi.yaml`) keeps its
/// `..` segments when turned back into a path relative to the folder.
enum SchemaURI {
    /// The schema folder's URI.
    static let folder = "file:///sesame/0/1/2/3/4/5/6/7/8/9/schema/"
    private static let folderComponents = ["sesame", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "schema"]

    /// The retrieval URI of the file at `relativePath` (relative to the schema folder).
    static func file(_ relativePath: String) -> String {
        resolve(relativePath, against: folder) ?? folder + relativePath
    }

    /// `reference` resolved against `base`, without dot segments; nil when it is not a URI
    /// reference Foundation can read.
    static func resolve(_ reference: String, against base: String) -> String? {
        let encoded = reference.addingPercentEncoding(withAllowedCharacters: allowed) ?? reference
        guard let baseURL = URL(string: base), let url = URL(string: encoded, relativeTo: baseURL) else { return nil }
        return url.absoluteURL.standardized.absoluteString
    }

    /// The characters a URI reference keeps as written: RFC 3986's reserved and unreserved
    /// characters, and `%` (already percent-encoded text stays as it is).
    private static let allowed = CharacterSet.urlFragmentAllowed.union(CharacterSet(charactersIn: "#%"))

    /// Whether `reference` is a relative reference (RFC 3986 §4.2): no scheme before its
    /// first `/`, `?` or `#`.
    static func isRelative(_ reference: String) -> Bool {
        let head = reference.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let colon = head.firstIndex(of: ":") else { return true }
        let scheme = head[..<colon]
        return !(scheme.first?.isLetter == true && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) })
    }

    /// A URI split at its `#`: the resource and the fragment, percent-decoded.
    static func split(_ uri: String) -> (resource: String, fragment: String) {
        guard let hash = uri.firstIndex(of: "#") else { return (uri, "") }
        let fragment = String(uri[uri.index(after: hash)...])
        return (String(uri[..<hash]), fragment.removingPercentEncoding ?? fragment)
    }

    /// The path relative to the schema folder of a file URI under the folder's root
    /// (`../api/openapi.yaml` for one beside the folder); nil for any other URI.
    static func relativePath(of uri: String) -> String? {
        guard uri.hasPrefix("file:///sesame/"), let url = URL(string: uri) else { return nil }
        let components = url.path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        var common = 0
        while common < min(components.count, folderComponents.count), components[common] == folderComponents[common] { common += 1 }
        guard common > 0 else { return nil }
        let ups = Array(repeating: "..", count: folderComponents.count - common)
        let path = (ups + components[common...]).joined(separator: "/")
        return path.isEmpty ? nil : path
    }

    /// `path` relative to the schema folder without `.` and `..` segments that cancel
    /// (`schemas/../api/x.json` → `api/x.json`, `../api/./x.json` → `../api/x.json`).
    static func normalized(_ path: String) -> String {
        var result: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component == "..", let last = result.last, last != ".." {
                result.removeLast()
            } else {
                result.append(component)
            }
        }
        return result.joined(separator: "/")
    }
}

/// What sdk.yaml's `references` says: the folders outside the schema folder that referenced
/// files may be read from, and the remote URIs that stand for local files.
public struct ReferenceSettings: Sendable, Hashable {
    /// Folders outside the schema folder that referenced files may be read from, relative to
    /// the schema folder and normalized (`../api`).
    public var roots: [String]
    /// Local files or folders by URI prefix (`https://example.com/schemas/` → `../api/schemas/`),
    /// longest prefix first.
    public var map: [Mapping]

    /// One entry of `references.map`.
    public struct Mapping: Sendable, Hashable {
        /// The start of the URIs it maps (`https://example.com/schemas/`).
        public var prefix: String
        /// The local file or folder, relative to the schema folder (`../api/schemas/`); the
        /// rest of the URI is appended to it.
        public var path: String
    }

    /// Settings with these roots (relative to the schema folder, normalized) and mappings
    /// (longest prefix first); the default reads nothing outside the folder and maps nothing.
    public init(roots: [String] = [], map: [Mapping] = []) {
        self.roots = roots
        self.map = map
    }

    /// Whether a file at `relativePath` (normalized) may be read: inside the schema folder,
    /// or inside a declared root.
    public func allows(_ relativePath: String) -> Bool {
        let path = SchemaURI.normalized(relativePath)
        guard path.hasPrefix("../") || path == ".." else { return !path.isEmpty }
        return roots.contains { root in path.hasPrefix(root.hasSuffix("/") ? root : root + "/") }
    }

    /// The local file `uri` stands for, relative to the schema folder, or nil when no
    /// mapping's prefix starts it.
    func localPath(of uri: String) -> String? {
        guard let mapping = map.first(where: { uri.hasPrefix($0.prefix) }) else { return nil }
        let rest = String(uri.dropFirst(mapping.prefix.count))
        return SchemaURI.normalized(mapping.path + rest)
    }

    /// The settings of sdk.yaml's `references` mapping; its keys' types are checked with the
    /// rest of sdk.yaml (`Grammar.references`), so what is malformed here is skipped.
    static func read(_ sdk: ParsedFile?) -> ReferenceSettings {
        guard case .mapping(let root)? = sdk?.root, case .mapping(let references)? = root["references"] else { return ReferenceSettings() }
        var settings = ReferenceSettings()
        if case .sequence(let roots)? = references["roots"] {
            settings.roots = roots.compactMap(\.string).map(SchemaURI.normalized).filter { !$0.isEmpty }
        }
        if case .mapping(let map)? = references["map"] {
            settings.map = map.compactMap { key, value in
                guard let prefix = key.string, let path = value.string else { return nil }
                return Mapping(prefix: prefix, path: path)
            }
            settings.map.sort { $0.prefix.count > $1.prefix.count }
        }
        return settings
    }
}
