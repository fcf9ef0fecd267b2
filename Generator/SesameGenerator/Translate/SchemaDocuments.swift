import Yams

/// The schema resources of every models file and referenced document, and the absolute URI
/// of every `$ref` in them (JSON Schema 2020-12 core §8.2, §9): what lets a `$ref` name a
/// schema in another file, by a JSON pointer, an `$anchor` or an `$id`.
///
/// A referenced document (a JSON Schema file, an OpenAPI document) is a resource of its own:
/// `#` is its root, its `$id` is resolved against the file's URI, and a `$ref` in it against
/// the `$id` of the nearest schema around it that has one. In a models file, only a model
/// with an `$id` is a resource (so `#/$defs/Name` inside it is its own `$defs`); elsewhere
/// `#/Name` keeps naming a model of any models file.
struct SchemaDocuments {
    /// A schema: the file that holds it (its path in diagnostics) and its JSON pointer there.
    struct Location: Hashable {
        var path: String
        var pointer: String
    }

    /// A `$ref` (or an OpenAPI discriminator's mapping value) and the base URI it is
    /// resolved against.
    struct Reference {
        var text: String
        var base: String
        /// Whether it is in a document or inside a model with an `$id` (else `#` means the
        /// models files, as it always has).
        var inResource: Bool

        /// The absolute URI (resolved only when asked: most `$ref`s of a models file are
        /// `#/Name` and never need it).
        var uri: String { SchemaURI.resolve(text, against: base) ?? text }
    }

    /// Where a `$ref` is: its file and position.
    private struct Position: Hashable {
        var path: String
        var line: Int
        var column: Int
    }

    /// What a reference found.
    enum Target {
        case schema(Location)
        /// Why it found nothing: the message of the error at the `$ref`.
        case failure(String)
    }

    let settings: ReferenceSettings
    /// Every models file and document by its path relative to the schema folder.
    private(set) var filesByRelativePath: [String: ParsedFile] = [:]
    /// Every document by the path diagnostics use.
    private(set) var documents: [String: ParsedFile] = [:]
    /// Every models file and document by the path diagnostics use.
    private(set) var filesByPath: [String: ParsedFile] = [:]
    /// Why a referenced file could not be read, by its path relative to the schema folder.
    let unreadable: [String: String]
    private var resources: [String: Location] = [:]
    private var anchors: [String: Location] = [:]
    private var references: [Position: Reference] = [:]
    /// The URI of each file that declares no resource (no `$id`, no `$anchor`) and names no
    /// other file (`ReferencedFiles.mayNameAFile`): most models files. Their `$ref`s are not
    /// indexed: each is resolved against the file's URI, outside any resource, which is what
    /// the walk would have recorded, and none can name a missing file.
    private var plainFiles: [String: String] = [:]
    /// What the walk may still visit (``maximumNodes`` at first), over every file indexed.
    private var budget = Self.maximumNodes
    /// The references recorded since ``takeMissingFiles()`` last ran, and the files named by
    /// those it ran on that were not read then, by their resource: what a search for
    /// referenced files reads in rounds, each file once (`ReferencedFiles.Search`).
    private var unchecked: [Reference] = []
    private var wanted: [String: String] = [:]

    /// How many nodes the walk visits, over all files, before it stops (a bound of its own
    /// besides the files' size limit).
    static let maximumNodes = 5_000_000

    /// - Parameter otherFiles: auth.yaml and events.yaml, whose inline schemas' `$ref`s are
    ///   indexed too (they name no schema resource of their own).
    init(
        modelFiles: [ParsedFile], documents: [ParsedFile], otherFiles: [ParsedFile] = [], settings: ReferenceSettings,
        unreadable: [String: String] = [:]
    ) {
        self.settings = settings
        self.unreadable = unreadable
        for file in modelFiles {
            filesByRelativePath[SchemaURI.normalized(file.source.relativePath)] = file
            filesByPath[file.source.path] = file
            index(file, isDocument: false)
        }
        for document in documents { add(document: document) }
        for file in otherFiles { index(file, isDocument: false) }
    }

    /// Adds a referenced document (normalized, `OpenAPIDocument.normalized`) and indexes it.
    mutating func add(document: ParsedFile) {
        filesByRelativePath[SchemaURI.normalized(document.source.relativePath)] = document
        self.documents[document.source.path] = document
        filesByPath[document.source.path] = document
        index(document, isDocument: true)
    }

    /// Whether the file at `path` (as diagnostics name it) is a referenced document.
    func isDocument(_ path: String) -> Bool { documents[path] != nil }

    /// The `$ref` (or discriminator mapping value) at `node` of the file at `path`.
    func reference(at node: Node, in path: String) -> Reference? {
        if let fileURI = plainFiles[path] {
            guard let text = node.string, node.mark != nil else { return nil }
            return Reference(text: text, base: fileURI, inResource: false)
        }
        guard let mark = node.mark else { return nil }
        return references[Position(path: path, line: mark.line, column: mark.column)]
    }

    /// Whether the part of `text` before its `#` names a models file of the folder, which
    /// `file.yaml#/Name` has always named (relative to the folder).
    func namesModelsFile(_ text: String) -> Bool {
        let file = SchemaURI.split(text).resource
        guard let found = filesByRelativePath[SchemaURI.normalized(file)] else { return false }
        return documents[found.source.path] == nil
    }

    /// Whether the file at `relativePath` (relative to the schema folder) was read.
    func reads(_ relativePath: String) -> Bool { filesByRelativePath[SchemaURI.normalized(relativePath)] != nil }

    /// The schema a reference names, or why there is none; a relative `$ref` that an `$id`
    /// took to another server says so, as does one whose `../` leave the folder's file tree.
    func target(of reference: Reference) -> Target {
        let found = target(of: reference.uri)
        guard case .failure(let message) = found, SchemaURI.isRelative(reference.text) else { return found }
        let resource = SchemaURI.split(reference.uri).resource
        if !reference.base.hasPrefix("file:") {
            return .failure(message + " (the $ref is relative to the $id '\(reference.base)' of the schema it is in)")
        }
        if resource.hasPrefix("file:"), SchemaURI.relativePath(of: resource) == nil {
            return .failure(
                "'\(reference.text)' goes up out of the schema folder past the root of its file tree; a $ref names a file "
                    + "by its path from the file it is in, inside the schema folder or a root declared in sdk.yaml "
                    + "(references: { roots: [...] })")
        }
        return found
    }

    /// The schema a reference's URI names, or why there is none.
    func target(of uri: String) -> Target {
        let (resource, fragment) = SchemaURI.split(uri)
        let root: Location
        if let found = resources[resource] {
            root = found
        } else if let path = SchemaURI.relativePath(of: resource) ?? settings.localPath(of: resource) {
            let normalized = SchemaURI.normalized(path)
            if let file = filesByRelativePath[normalized] {
                root = Location(path: file.source.path, pointer: "")
            } else if let reason = unreadable[normalized] {
                return .failure("cannot read '\(normalized)': \(reason)")
            } else if !settings.allows(normalized) {
                return .failure(
                    "'\(normalized)' is outside the schema folder; declare its folder in sdk.yaml (references: { roots: [\(Self.folder(of: normalized))] })"
                )
            } else {
                return .failure("no file '\(normalized)'")
            }
        } else if resource.hasPrefix("http://") || resource.hasPrefix("https://") || !resource.hasPrefix("file:") {
            return .failure(
                "a remote reference (\(resource)), which Sesame does not fetch; map its URI to a local file in sdk.yaml (references: { map: { \"\(resource)\": path } })"
            )
        } else {
            return .failure("'\(resource)' names no file of the schema")
        }
        if fragment.isEmpty { return .schema(root) }
        if fragment.hasPrefix("/") { return .schema(Location(path: root.path, pointer: root.pointer + fragment)) }
        if let found = anchors[Self.anchorKey(root, fragment)] { return .schema(found) }
        return .failure("no $anchor '\(fragment)' in \(root.path)")
    }

    /// The files a reference names that are not read yet, relative to the schema folder.
    func missingFiles() -> [String] {
        var paths: Set<String> = []
        for reference in references.values where reference.inResource || !reference.text.hasPrefix("#") {
            let resource = SchemaURI.split(reference.uri).resource
            guard resources[resource] == nil, let path = SchemaURI.relativePath(of: resource) ?? settings.localPath(of: resource)
            else { continue }
            let normalized = SchemaURI.normalized(path)
            if filesByRelativePath[normalized] == nil { paths.insert(normalized) }
        }
        return paths.sorted()
    }

    /// The files a reference names that are not read yet, relative to the schema folder, as
    /// ``missingFiles()`` finds them, in time linear in what was added since the last call:
    /// each reference is resolved once, and only the files still missing are checked again.
    mutating func takeMissingFiles() -> [String] {
        for reference in unchecked where reference.inResource || !reference.text.hasPrefix("#") {
            let resource = SchemaURI.split(reference.uri).resource
            guard let path = SchemaURI.relativePath(of: resource) ?? settings.localPath(of: resource) else { continue }
            wanted[resource] = SchemaURI.normalized(path)
        }
        unchecked = []
        wanted = wanted.filter { resources[$0.key] == nil && filesByRelativePath[$0.value] == nil }
        return Set(wanted.values).sorted()
    }

    /// The node at `pointer` in `file`, with the key node that names it (the node itself for
    /// the root or an array item); nil when the pointer names nothing.
    static func node(at pointer: String, in file: ParsedFile) -> (node: Node, keyNode: Node)? {
        guard var current = file.root else { return nil }
        var keyNode = current
        guard !pointer.isEmpty else { return (current, keyNode) }
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = ModelReferences.unescapePointer(raw)
            switch current {
            case .mapping(let mapping):
                guard let index = mapping.firstIndex(where: { $0.key.string == token }) else { return nil }
                keyNode = mapping[index].key
                current = mapping[index].value
            case .sequence(let items):
                guard let index = Int(token), items.indices.contains(index) else { return nil }
                current = items[index]
                keyNode = current
            default: return nil
            }
        }
        return (current, keyNode)
    }

    // MARK: Indexing

    /// An `$anchor` is found by the resource it is in (however that resource is named: its
    /// file's URI or its `$id`) and its name.
    private static func anchorKey(_ resource: Location, _ anchor: String) -> String {
        "\(resource.path)#\(resource.pointer)#\(anchor)"
    }

    private static func folder(of path: String) -> String {
        let parts = path.split(separator: "/")
        return parts.dropLast().joined(separator: "/")
    }

    /// Whether `text` may declare a schema resource: it holds `$id` or `$anchor`, or a YAML
    /// escape that could spell a `$` (`\u0024`, `\x24`, `\U00000024`). A file that does
    /// does not, and names no other file, is not walked (the walk was 7 % of generating a
    /// 2,000-model schema).
    static func mayDeclareResources(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            func matches(_ word: StaticString, at index: Int) -> Bool { bytes.holds(word, at: index) }
            for index in bytes.indices {
                switch bytes[index] {
                case UInt8(ascii: "$"):
                    if matches("$id", at: index) || matches("$anchor", at: index) { return true }
                case UInt8(ascii: "\\"):
                    if matches("\\u0024", at: index) || matches("\\x24", at: index) || matches("\\U00000024", at: index) {
                        return true
                    }
                default: continue
                }
            }
            return false
        }
    }

    /// Keys whose values are data, not schemas: a `$ref` or `$id` in them is a value.
    private static let dataKeys: Set<String> = ["enum", "const", "default", "examples", "example"]

    /// Walks a file with a work list (no recursion): records its resources (`$id`), anchors
    /// (`$anchor`) and the absolute URI of each `$ref`.
    private mutating func index(_ file: ParsedFile, isDocument: Bool) {
        guard let root = file.root else { return }
        let path = file.source.path
        let fileURI = SchemaURI.file(SchemaURI.normalized(file.source.relativePath))
        let isOpenAPI = OpenAPIDocument.isOpenAPI(root)
        if isDocument { resources[fileURI] = Location(path: path, pointer: "") }
        if !isDocument, !isOpenAPI, !Self.mayDeclareResources(file.source.text),
            !ReferencedFiles.mayNameAFile(file.source.text)
        {
            plainFiles[path] = fileURI
            return
        }
        // Each node's JSON pointer is its parent's plus its token, kept as links and spelled
        // out only for a schema with an `$id` or an `$anchor`.
        var links: [(parent: Int, token: String)] = [(-1, "")]
        func pointer(_ link: Int) -> String {
            var tokens: [String] = []
            var current = link
            while current > 0 {
                tokens.append(ModelReferences.escapePointer(links[current].token))
                current = links[current].parent
            }
            return tokens.reversed().map { "/" + $0 }.joined()
        }
        typealias Item = (node: Node, link: Int, base: String, resource: Location, inResource: Bool, parentKey: String)
        var work: [Item] = [(root, 0, fileURI, Location(path: path, pointer: ""), isDocument, "")]
        while let (node, link, inheritedBase, inheritedResource, inheritedInResource, parentKey) = work.popLast() {
            budget -= 1
            guard budget > 0 else { return }
            switch node {
            case .mapping(let mapping):
                var base = inheritedBase
                var resource = inheritedResource
                var inResource = inheritedInResource
                let isSchemaRoot = !(link == 0 && (!isDocument || isOpenAPI))
                // One pass for `$id` and `$anchor` (a `$ref` beside an `$id` is resolved against it).
                var id: String?
                var anchor: String?
                if isSchemaRoot {
                    for (keyNode, value) in mapping {
                        guard case .scalar(let key) = keyNode, key.string.first == "$" else { continue }
                        if key.string == "$id" { id = value.string } else if key.string == "$anchor" { anchor = value.string }
                    }
                }
                if let id, let resolved = SchemaURI.resolve(id, against: base) {
                    base = SchemaURI.split(resolved).resource
                    resource = Location(path: path, pointer: pointer(link))
                    if resources[base] == nil { resources[base] = resource }
                    inResource = true
                }
                if let anchor {
                    let key = Self.anchorKey(resource, anchor)
                    if anchors[key] == nil { anchors[key] = Location(path: path, pointer: pointer(link)) }
                }
                for (keyNode, value) in mapping {
                    guard let key = keyNode.string else { continue }
                    if key == "$ref", let text = value.string, let mark = value.mark {
                        let reference = Reference(text: text, base: base, inResource: inResource)
                        references[Position(path: path, line: mark.line, column: mark.column)] = reference
                        unchecked.append(reference)
                    }
                    if isOpenAPI, key == "mapping", parentKey == "discriminator", case .mapping(let targets) = value {
                        // OpenAPI: a mapping value without a `/` names a schema of components/schemas.
                        for (_, target) in targets {
                            guard let text = target.string, let mark = target.mark else { continue }
                            let reference = text.contains("/") || text.contains("#") ? text : "#/components/schemas/" + text
                            let found = Reference(text: reference, base: base, inResource: inResource)
                            references[Position(path: path, line: mark.line, column: mark.column)] = found
                            unchecked.append(found)
                        }
                    }
                    if Self.dataKeys.contains(key) && parentKey != "properties" { continue }
                    switch value {
                    case .mapping, .sequence:
                        links.append((link, key))
                        work.append((value, links.count - 1, base, resource, inResource, key))
                    default: continue
                    }
                }
            case .sequence(let items):
                for (offset, item) in items.enumerated() {
                    guard case .mapping = item else { continue }
                    links.append((link, String(offset)))
                    work.append((item, links.count - 1, inheritedBase, inheritedResource, inheritedInResource, ""))
                }
            default: break
            }
        }
    }
}
