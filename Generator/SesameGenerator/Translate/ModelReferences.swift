import Foundation
import Yams

/// The reference-resolution pass of the models: collects the models every models file
/// declares (top-level keys, `$defs`), with the names a `$ref` may use for each (its JSON
/// pointer, `$anchor`, `$id`), and resolves a `$ref` to a declared model's name. A pointer to
/// a schema inside a model (`#/User/properties/address`) declares a model of it here, named
/// after the pointer.
///
/// It decides no Swift name: it asks the naming pass's register (`typeNames`) for each
/// model's type as it declares the model. `ModelTranslator` reads the declarations from it.
struct ModelReferences {
    /// A model declared at the top level of a models file.
    struct Declaration {
        var name: String
        var swiftName: String
        var node: Node
        var keyNode: Node
        var file: ParsedFile
        /// The JSON pointer of the schema in its file (`/User`, `/$defs/Address`).
        var pointer: String = ""

        /// A reference to the declared model.
        var reference: ModelRef { ModelRef(declaredName: name, swiftPath: swiftName) }
    }

    var declarations: [String: Declaration] = [:]
    /// The model type names, decided by the naming pass: declared models' by Swift type name
    /// (lookups by type stay constant-time), and the nested and hoisted types' as the
    /// translators ask for them.
    var typeNames = ModelTypeNames()
    /// Declared names by Swift type name.
    var namesBySwiftName: [String: String] { typeNames.declaredNames }
    /// Declared names by `file#pointer`, `file#anchor` and `$id`, for `$ref`.
    var pointers: [String: String] = [:]
    /// The pointers of the `$defs` entries named after their owner, by their key: a bare
    /// `item` that names none of them says which to write.
    private var ambiguousDefinitions: [String: [String]] = [:]
    private var identifiers: [String: String] = [:]
    var files: [String: ParsedFile] = [:]
    /// The resources of the models files and of the referenced documents (see `SchemaDocuments`).
    let documents: SchemaDocuments
    /// Over a complete table (inline schemas of auth.yaml, events.yaml): a pointer may not
    /// make a model of the schema it points to, as the models are all translated already (a
    /// model first named there would never be translated). A matter of the passes' order,
    /// not of naming: the naming pass would name such a model as any other.
    let declaresNoModel: Bool

    /// Collects the top-level models of every models file; a name declared twice, or two
    /// names that give the same Swift type, are errors. A `$defs` entry is a model named by
    /// its key, unless another model or `$defs` entry would have its Swift type: then it is
    /// named after its owner (`definitionName`). A model that is only a `$ref` to a schema of
    /// a referenced document is that schema, under the model's name.
    init(modelFiles: [ParsedFile], documents: SchemaDocuments, readers: inout [String: NodeReader]) {
        self.documents = documents
        declaresNoModel = false
        var schemas: [(Entry, String, ParsedFile)] = []
        for file in modelFiles {
            var reader = NodeReader(file: file.source.path)
            defer { readers[file.source.path] = reader }
            guard let root = file.root, !root.isNullScalar else { continue }
            guard let entries = reader.mapping(root, "a models file") else { continue }
            files[file.source.path] = file
            schemas += Self.declaredSchemas(entries, reader: &reader).map { ($0.0, $0.1, file) }
        }
        // `$defs` are local to their schema: an entry whose Swift type another declaration
        // would have too waits for the others, then takes a name after its owner.
        // How many declarations want each Swift type; a top-level model counts for two, as
        // it keeps its name beside any `$defs` entry.
        var claims: [String: Int] = [:]
        for (entry, pointer, _) in schemas {
            claims[NamingPass.declaredModelName(entry.key), default: 0] += Self.isDefinition(pointer) ? 1 : 2
        }
        var clashing: [(Entry, String, ParsedFile)] = []
        for (entry, pointer, file) in schemas {
            if Self.isDefinition(pointer), claims[NamingPass.declaredModelName(entry.key), default: 0] > 1 {
                clashing.append((entry, pointer, file))
                continue
            }
            var reader = readers[file.source.path] ?? NodeReader(file: file.source.path)
            defer { readers[file.source.path] = reader }
            if let previous = declarations[entry.key] {
                reader.error(
                    "model '\(entry.key)' is already declared at \(reader.location(of: previous.keyNode).withFile(previous.file.source.path))",
                    at: entry.keyNode)
                continue
            }
            switch typeNames.declare(entry.key) {
            case .success(let swiftName): declare(entry, swiftName: swiftName, name: entry.key, pointer: pointer, in: file)
            case .failure(let clash):
                reader.error(
                    "model '\(entry.key)' and model '\(clash.previous)' would both be the Swift type \(clash.swiftName)",
                    at: entry.keyNode)
            }
        }
        // In the order of their files' paths and pointers, whatever the order files are read in.
        clashing.sort { ($0.2.source.relativePath, $0.1) < ($1.2.source.relativePath, $1.1) }
        for (entry, pointer, file) in clashing {
            let owner = Self.owner(of: pointer, in: file)
            let swiftName = typeNames.declareDefinition(entry.key, owner: owner)
            declare(entry, swiftName: swiftName, name: swiftName, pointer: pointer, in: file)
            ambiguousDefinitions[entry.key, default: []].append(file.source.relativePath + "#" + pointer)
        }
        adoptDocumentSchemas()
    }

    /// Declares the model of `entry` under `name`, with the names a `$ref` may use for it.
    private mutating func declare(_ entry: Entry, swiftName: String, name: String, pointer: String, in file: ParsedFile) {
        declarations[name] = Declaration(
            name: name, swiftName: swiftName, node: entry.value, keyNode: entry.keyNode, file: file, pointer: pointer)
        pointers[file.source.path + "#" + pointer] = name
        if case .mapping(let mapping) = entry.value {
            for (key, value) in mapping where key.string?.first == "$" {
                if key.string == "$anchor", let anchor = value.string { pointers[file.source.path + "#" + anchor] = name }
                if key.string == "$id", let id = value.string { identifiers[id] = name }
            }
        }
    }

    /// Whether the schema at `pointer` is an entry of a `$defs` (`/$defs/Item`, `/A/$defs/Item`).
    static func isDefinition(_ pointer: String) -> Bool {
        pointer.contains("/$defs/")
    }

    /// The owner a clashing `$defs` entry is named after: the model whose `$defs` holds it
    /// (`/A/$defs/item` → `A`), or for a file's own `$defs` the file's stem
    /// (`billing.yaml`, `/$defs/item` → `billing`).
    static func owner(of pointer: String, in file: ParsedFile) -> String {
        var tokens = pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        tokens.removeLast(2)
        guard let last = tokens.last else {
            return ((file.source.relativePath as NSString).lastPathComponent as NSString).deletingPathExtension
        }
        return Self.unescapePointer(last)
    }

    /// The models of a models file: its top-level keys, the entries of a top-level `$defs`,
    /// and of the `$defs` inside those, each with its JSON pointer.
    static func declaredSchemas(_ entries: [Entry], reader: inout NodeReader, prefix: String = "") -> [(Entry, String)] {
        var result: [(Entry, String)] = []
        for entry in entries {
            let pointer = prefix + "/" + Self.escapePointer(entry.key)
            if entry.key == "$defs" {
                if let definitions = reader.mapping(entry.value, "$defs") {
                    result += declaredSchemas(definitions, reader: &reader, prefix: pointer)
                }
                continue
            }
            if entry.key == "$comment" && prefix.isEmpty { continue }
            result.append((entry, pointer))
            guard case .mapping(let mapping) = entry.value else { continue }
            for (key, definitions) in mapping where key.string == "$defs" {
                if case .mapping = definitions, let inner = reader.mapping(definitions, "$defs") {
                    result += declaredSchemas(inner, reader: &reader, prefix: pointer + "/$defs")
                }
            }
        }
        return result
    }

    /// A JSON pointer token as the key it names (RFC 6901 §4: `~1` is `/`, then `~0` is `~`).
    static func unescapePointer(_ token: some StringProtocol) -> String {
        token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }

    static func escapePointer(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The references of a complete table: every declared model is translated already, so a
    /// pointer may name a declared model only.
    init(table: ModelTable) {
        documents = table.documents
        declarations = table.declarations
        typeNames = table.typeNames
        // The names `$ref` may use besides a model's: its pointer, `$anchor` and `$id`.
        declaresNoModel = true
        for declaration in table.declarations.values {
            let path = declaration.file.source.path
            files[path] = declaration.file
            pointers["\(path)#\(declaration.pointer)"] = declaration.name
            guard case .mapping(let mapping) = declaration.node else { continue }
            if let anchor = mapping["$anchor"]?.string { pointers["\(path)#\(anchor)"] = declaration.name }
            if let id = mapping["$id"]?.string { identifiers[id] = declaration.name }
        }
    }

    /// Resolves a `$ref` to a declared model name: a bare `Name`, `#/Name`, `file.yaml#/Name`,
    /// a JSON pointer inside a models file (`#/$defs/Name`, `#/User/properties/address`), an
    /// `#anchor` (`$anchor`) or a schema's `$id`. Remote references are refused.
    mutating func resolve(_ node: Node, reader: inout NodeReader) -> String? {
        guard let text = reader.string(node, "$ref") else { return nil }
        if let name = identifiers[text] { return name }
        if let reference = documents.reference(at: node, in: reader.file), followsDocuments(text, reference) {
            switch documents.target(of: reference) {
            case .schema(let location):
                if let name = pointers["\(location.path)#\(location.pointer)"] { return name }
                // Inside a model with an `$id` of a models file, `#/Name` that its resource
                // does not hold still names a model of the models files.
                if documents.isDocument(reader.file) || !text.hasPrefix("#") || holds(location) {
                    return documentModel(at: location, text: text, node: node, reader: &reader)
                }
            case .failure(let message):
                if documents.isDocument(reader.file) || !text.hasPrefix("#") {
                    reader.error("$ref '\(text)': \(message)", at: node)
                    return nil
                }
            }
        }
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let file = parts.count == 2 ? parts[0] : ""
        var name = parts.count == 2 ? parts[1] : parts[0]
        let remote = parts[0].contains("://") || parts[0].lowercased().hasPrefix("urn:") || file.contains(":") || file.hasPrefix("//")
        if remote || (!file.isEmpty && !file.hasSuffix(".yaml") && !file.hasSuffix(".yml")) {
            reader.error(
                "$ref '\(text)' is a remote reference, which Sesame does not support; declare the model in a models file", at: node)
            return nil
        }
        let path: String? =
            file.isEmpty
            ? (files[reader.file] != nil ? reader.file : nil)
            : files.values.first(where: { $0.source.relativePath == file })?.source.path
        if let path, parts.count == 2, let found = pointers["\(path)#\(name)"] { return found }
        if path == nil, file.isEmpty, parts.count == 2, !name.isEmpty {
            // From a file that declares no models (auth.yaml): `#/$defs/Name` or `#anchor`
            // in whichever models file declares it, as `#/Name` names a model of any file.
            let found = Set(pointers.filter { $0.key.hasSuffix("#" + name) }.values)
            if found.count == 1 { return found.first }
        }
        if parts.count == 2 && !name.hasPrefix("/") && !name.isEmpty {
            reader.error("$ref '\(text)' names no $anchor", at: node)
            return nil
        }
        // A bare `Name` is taken as written, `/` included (a model named `a/b`); only a
        // reference with a `#`, or a bare one that names no model, is a pointer.
        if parts.count == 1, file.isEmpty, declarations[name] != nil { return name }
        if name.hasPrefix("/") { name.removeFirst() }
        if name.contains("/") {
            guard let path else {
                reader.error("$ref '\(text)' points into no models file; outside one, name a model ('#/Name' or '#/$defs/Name')", at: node)
                return nil
            }
            return pointedModel(text, pointer: "/" + name, file: path, at: node, reader: &reader)
        }
        // `#/Name` is a JSON pointer of one token: a model named `a/b~c` is `#/a~1b~0c`, in
        // whichever file declares it (RFC 6901; a bare `Name` is taken as written).
        if parts.count == 2 { name = Self.unescapePointer(name) }
        guard let declaration = declarations[name] else {
            if let candidates = ambiguousDefinitions[name] {
                reader.error(
                    "no model is named '\(name)' in $ref '\(text)': the $defs entries of that key are named after their owners; name one by its pointer (\(candidates.joined(separator: ", ")))",
                    at: node)
                return nil
            }
            let hint =
                Suggestion.hint(for: name, among: Array(declarations.keys)) { "#/" + Self.escapePointer($0) } ?? ""
            reader.error("unknown model '\(name)' in $ref '\(text)'\(hint)", at: node)
            return nil
        }
        if !file.isEmpty, declaration.file.source.relativePath != file {
            reader.error("model '\(name)' is declared in \(declaration.file.source.relativePath), not in \(file)", at: node)
            return nil
        }
        return name
    }

    /// A JSON pointer to a schema inside a models file that is not a model of its own
    /// (`#/User/properties/address`): the schema becomes a model named after the pointer.
    private mutating func pointedModel(
        _ text: String, pointer: String, file path: String, at node: Node, reader: inout NodeReader
    )
        -> String?
    {
        guard let parsed = files[path], var current = parsed.root else { return nil }
        if declaresNoModel {
            reader.error("$ref '\(text)' must name a model ('#/Name' or '#/$defs/Name') outside the models files", at: node)
            return nil
        }
        let tokens = pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            Self.unescapePointer($0.removingPercentEncoding ?? String($0))
        }
        var keyNode = node
        // Start from the declared model the pointer goes through (`/User`, `/$defs/Address`)
        // rather than scanning the file's top-level keys once per pointer.
        var start = 0
        for length in [2, 1] where start == 0 && tokens.count > length {
            let prefix = tokens[..<length].map { "/" + Self.escapePointer($0) }.joined()
            if let name = pointers["\(path)#\(prefix)"], let declaration = declarations[name] {
                current = declaration.node
                keyNode = declaration.keyNode
                start = length
            }
        }
        for token in tokens[start...] {
            switch current {
            case .mapping(let mapping):
                guard let index = mapping.firstIndex(where: { $0.key.string == token }) else {
                    reader.error("$ref '\(text)' points to nothing: no '\(token)' in its file", at: node)
                    return nil
                }
                keyNode = mapping[index].key
                current = mapping[index].value
            case .sequence(let items):
                guard let index = Int(token), items.indices.contains(index) else {
                    reader.error("$ref '\(text)' points to nothing: no item \(token) in its file", at: node)
                    return nil
                }
                current = items[index]
            default:
                reader.error("$ref '\(text)' points to nothing in its file", at: node)
                return nil
            }
        }
        guard case .mapping = current else {
            reader.error("$ref '\(text)' must point to a schema (a mapping)", at: node)
            return nil
        }
        let name = String(pointer.dropFirst())
        let swiftName = typeNames.declarePointed(name, tokens: tokens)
        declarations[name] = Declaration(name: name, swiftName: swiftName, node: current, keyNode: keyNode, file: parsed, pointer: pointer)
        pointers["\(path)#\(pointer)"] = name
        return name
    }
}
