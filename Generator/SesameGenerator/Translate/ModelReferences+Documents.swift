import Foundation
import Yams

/// References that leave the models files' own naming: to a schema of a referenced document
/// (`./schemas/user.json#/$defs/Address`, `openapi.yaml#/components/schemas/User`), by a
/// remote URI mapped to a local file, or inside a model with an `$id` (see `SchemaDocuments`).
/// Each schema so named becomes one model, however many `$ref`s name it.
extension ModelReferences {
    /// Whether `$ref: text` is resolved as a URI (`SchemaDocuments`) rather than as a model name:
    /// in a document or inside a model with an `$id`, always; in a models file, when it names
    /// a file that is not a models file of the folder, or a remote URI.
    func followsDocuments(_ text: String, _ reference: SchemaDocuments.Reference) -> Bool {
        if reference.inResource { return true }
        if text.utf8.first == UInt8(ascii: "#") { return false }
        let file = SchemaURI.split(text).resource
        if file.isEmpty { return false }
        if file.contains("://") || file.lowercased().hasPrefix("urn:") { return true }
        let extensions = [".json", ".yaml", ".yml"]
        guard extensions.contains(where: { file.lowercased().hasSuffix($0) }), !documents.namesModelsFile(text) else { return false }
        // `billing.yaml#/User` where no such file was read but a models file declares `User`:
        // the models files' own error ("declared in models.yaml, not in billing.yaml") says more.
        let fragment = SchemaURI.split(text).fragment
        if !documents.reads(file), fragment.hasPrefix("/"), !fragment.dropFirst().contains("/"),
            declarations[String(fragment.dropFirst())] != nil, !file.lowercased().hasSuffix(".json")
        {
            return false
        }
        return true
    }

    /// Whether `location` names a schema that exists.
    func holds(_ location: SchemaDocuments.Location) -> Bool {
        guard let file = documents.filesByPath[location.path] else { return false }
        return SchemaDocuments.node(at: location.pointer, in: file) != nil
    }

    /// The model of the schema at `location`: the one declared already, or a new model
    /// named after it (`ModelTypeNames.declareDocumentSchema`). Errors are at the `$ref` (`node`).
    mutating func documentModel(
        at location: SchemaDocuments.Location, text: String, node: Node, reader: inout NodeReader
    ) -> String? {
        let key = "\(location.path)#\(location.pointer)"
        if let name = pointers[key] { return name }
        guard let file = documents.filesByPath[location.path], let (target, keyNode) = SchemaDocuments.node(at: location.pointer, in: file)
        else {
            let pointer = location.pointer.isEmpty ? "its root" : "'#\(location.pointer)'"
            reader.error("$ref '\(text)' points to nothing: \(location.path) has no \(pointer)", at: node)
            return nil
        }
        guard case .mapping(let mapping) = target else {
            reader.error("$ref '\(text)' must point to a schema (a mapping)", at: node)
            return nil
        }
        if declaresNoModel {
            reader.error(
                "$ref '\(text)' names a schema no models file declares; declare it in a models file (Name: { $ref: \"\(text)\" })",
                at: node)
            return nil
        }
        let tokens =
            location.pointer.isEmpty
            ? []
            : location.pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
                Self.unescapePointer($0)
            }
        let stem = ((file.source.relativePath as NSString).lastPathComponent as NSString).deletingPathExtension
        let swiftName = typeNames.declareDocumentSchema(pointer: tokens, title: mapping["title"]?.string, stem: stem)
        declarations[swiftName] = Declaration(
            name: swiftName, swiftName: swiftName, node: target, keyNode: keyNode, file: file, pointer: location.pointer)
        pointers[key] = swiftName
        return swiftName
    }

    /// A model of a models file that is only a `$ref` to a schema of a referenced document
    /// (`User: { $ref: "openapi.yaml#/components/schemas/User" }`) is that schema: its Swift
    /// type has the model's name, and every other `$ref` to the schema names it too. Any
    /// problem with the reference is reported when the model is translated as an alias.
    mutating func adoptDocumentSchemas() {
        for name in declarations.keys.sorted() {
            guard var declaration = declarations[name], !documents.isDocument(declaration.file.source.path),
                case .mapping(let mapping) = declaration.node, mapping.count == 1, let value = mapping["$ref"],
                let text = value.string,
                let reference = documents.reference(at: value, in: declaration.file.source.path),
                followsDocuments(text, reference),
                case .schema(let location) = documents.target(of: reference.uri),
                documents.isDocument(location.path), pointers["\(location.path)#\(location.pointer)"] == nil,
                let file = documents.filesByPath[location.path],
                let (target, keyNode) = SchemaDocuments.node(at: location.pointer, in: file), case .mapping = target
            else { continue }
            declaration.node = target
            declaration.keyNode = keyNode
            declaration.file = file
            declaration.pointer = location.pointer
            declarations[name] = declaration
            pointers["\(location.path)#\(location.pointer)"] = name
        }
    }
}
