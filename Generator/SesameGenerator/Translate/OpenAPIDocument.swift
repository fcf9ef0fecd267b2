import Yams

/// An OpenAPI 3.0 or 3.1 document a `$ref` points into (`openapi.yaml#/components/schemas/User`),
/// recognized by its top-level `openapi` key, and what of its dialect Sesame reads as JSON
/// Schema 2020-12 before the models are translated:
///
/// - OpenAPI 3.0's `nullable: true` is `type: [X, "null"]` (or, beside no `type`, the schema
///   as one `anyOf` member beside `{type: null}`, `allOf: [{$ref: X}]` read as X);
///   `nullable: false` says nothing;
/// - `discriminator` is read as it is (3.0's and 3.1's are the same object), and a mapping
///   value without a `/` names a schema of `components/schemas` (see `SchemaDocuments`);
/// - the OpenAPI annotations `example`, `xml` and `externalDocs` are dropped.
///
/// Positions are kept: every node keeps its mark, so diagnostics point into the document.
enum OpenAPIDocument {
    /// Whether a document's root is an OpenAPI document (it has an `openapi` key).
    static func isOpenAPI(_ root: Node) -> Bool {
        guard case .mapping(let mapping) = root else { return false }
        return mapping.contains { $0.key.string == "openapi" }
    }

    /// Whether a YAML file of the schema folder is a document rather than a models file: an
    /// OpenAPI document, or a JSON Schema document that says so with `$schema`.
    static func isDocument(_ root: Node?) -> Bool {
        guard let root, case .mapping(let mapping) = root else { return false }
        return mapping.contains { $0.key.string == "openapi" || $0.key.string == "$schema" }
    }

    /// The OpenAPI annotations that JSON Schema 2020-12 does not have.
    static let annotations: Set<String> = ["example", "xml", "externalDocs"]

    /// The document with its schemas read as JSON Schema 2020-12. Recursion is bounded by the
    /// nesting limit every file is read with (`YAMLReader`).
    static func normalized(_ file: ParsedFile) -> ParsedFile {
        guard let root = file.root, isOpenAPI(root) else { return file }
        var copy = file
        copy.root = normalized(root)
        return copy
    }

    private static func normalized(_ node: Node) -> Node {
        switch node {
        case .mapping(let mapping):
            var pairs: [(Node, Node)] = []
            var nullable: Node?
            for (key, value) in mapping {
                switch key.string {
                case "nullable"?: nullable = value
                case let name? where annotations.contains(name): continue
                // Data, not schemas: kept as written.
                case "enum"?, "const"?, "default"?, "examples"?: pairs.append((key, value))
                default: pairs.append((key, normalized(value)))
                }
            }
            let rebuilt = Node.mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
            guard let nullable, nullable.bool == true else { return rebuilt }
            return nullableSchema(pairs, of: mapping, at: nullable)
        case .sequence(let sequence):
            return .sequence(Node.Sequence(sequence.map(normalized), sequence.tag, sequence.style, sequence.mark))
        default:
            return node
        }
    }

    /// `nullable: true` beside `pairs`: `type` becomes a list with `null`; without `type`,
    /// the schema becomes `anyOf: [schema, {type: null}]`, its annotations kept outside.
    private static func nullableSchema(_ pairs: [(Node, Node)], of mapping: Node.Mapping, at marker: Node) -> Node {
        let null = Node.scalar(Node.Scalar("null", Tag(.str), .doubleQuoted, marker.mark))
        if let index = pairs.firstIndex(where: { $0.0.string == "type" }) {
            var pairs = pairs
            let type = pairs[index].1
            switch type {
            case .sequence(let items):
                if !items.contains(where: { $0.string == "null" }) {
                    pairs[index].1 = .sequence(Node.Sequence(Array(items) + [null], items.tag, items.style, items.mark))
                }
            default:
                pairs[index].1 = .sequence(Node.Sequence([type, null], Tag(.seq), .flow, type.mark))
            }
            return .mapping(Node.Mapping(pairs, mapping.tag, mapping.style, mapping.mark))
        }
        let kept: Set<String> = ["description", "title", "deprecated", "examples", "$comment", "default"]
        let outside = pairs.filter { kept.contains($0.0.string ?? "") }
        let inside = pairs.filter { !kept.contains($0.0.string ?? "") }
        var schema = Node.mapping(Node.Mapping(inside, mapping.tag, mapping.style, mapping.mark))
        // `allOf: [{$ref: X}]` beside `nullable`, the OpenAPI 3.0 idiom for a nullable reference, is X.
        if inside.count == 1, inside[0].0.string == "allOf", case .sequence(let members) = inside[0].1, members.count == 1 {
            schema = members[0]
        }
        let nullSchema = Node.mapping(Node.Mapping([(key("type", at: marker), null)], Tag(.map), .flow, marker.mark))
        let anyOf = Node.sequence(Node.Sequence([schema, nullSchema], Tag(.seq), .flow, mapping.mark))
        return .mapping(Node.Mapping(outside + [(key("anyOf", at: marker), anyOf)], mapping.tag, mapping.style, mapping.mark))
    }

    private static func key(_ text: String, at node: Node) -> Node {
        .scalar(Node.Scalar(text, Tag(.str), .plain, node.mark))
    }
}
