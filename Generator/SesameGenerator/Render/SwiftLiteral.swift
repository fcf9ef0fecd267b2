import Foundation
@_spi(Generated) import SesameDescription

/// Prints a SesameDescription value as the Swift expression that builds it: the one way
/// the generated code carries the protocol's descriptions, never Swift typed per type into
/// strings.
///
/// It walks the value with `Mirror`:
/// - a struct prints `TypeName(label: value, …)`, its stored properties in declaration
///   order, leaving out those that are nil. So every description struct has a public
///   initialiser whose labels are its stored properties, in order, with `= nil` for the
///   optional ones (the fixture SDKs compile what this prints, and fail when one does not);
/// - an enum prints `.case` or `.case(payload)` (its type comes from the context); an
///   associated value is unlabelled, or the case has two or more labelled ones;
/// - arrays, sets (sorted) and dictionaries (sorted by key) print as literals;
/// - `String`, `Int`, `Double`, `Bool`, `URL` and `Duration` are leaves.
/// `substitute` may name a value the generated code already declares (`Requests.me`)
/// before it is printed whole. A struct whose stored properties are not its initialiser's
/// labels (``ModelCheck``, whose subschemas sit behind private references) says what to
/// print through ``SwiftLiteralArguments``.
struct SwiftLiteral {
    var substitute: (Any) -> String? = { _ in nil }
    /// Past this width a literal breaks, one argument or element per line.
    var width = 120

    /// The expression, broken over lines where it is wider than ``width``; `indent` is the
    /// indentation of the line it starts on, in levels of four spaces.
    func print(_ value: Any, indent: Int = 0) -> String {
        node(value).written(indent: indent, width: width)
    }

    /// A printed expression: a leaf, or a bracketed list whose items may go one per line.
    private indirect enum Node {
        case leaf(String)
        case list(prefix: String, open: String, close: String, items: [(label: String?, node: Node)])

        var flat: String {
            switch self {
            case .leaf(let text): return text
            case .list(let prefix, let open, let close, let items):
                return prefix + open + items.map { ($0.label.map { "\($0): " } ?? "") + $0.node.flat }.joined(separator: ", ") + close
            }
        }

        func written(indent: Int, width: Int) -> String {
            let flat = self.flat
            guard case .list(let prefix, let open, let close, let items) = self, !items.isEmpty, flat.count + indent * 4 > width else {
                return flat
            }
            let inner = String(repeating: "    ", count: indent + 1)
            let lines = items.map { inner + ($0.label.map { "\($0): " } ?? "") + $0.node.written(indent: indent + 1, width: width) }
            // Array literals take a trailing comma; argument lists do not.
            let last = open == "[" ? "," : ""
            return prefix + open + "\n" + lines.joined(separator: ",\n") + last + "\n" + String(repeating: "    ", count: indent) + close
        }
    }

    private func node(_ value: Any) -> Node {
        if let named = substitute(value) { return .leaf(named) }
        switch value {
        case let text as String: return .leaf(SwiftName.stringLiteral(text))
        case let flag as Bool: return .leaf(flag ? "true" : "false")
        case let number as Int: return .leaf(String(number))
        case let number as Double: return .leaf(number.isFinite ? "\(number)" : "Double.nan")
        case let url as URL: return .leaf("URL(string: \(SwiftName.stringLiteral(url.absoluteString)))!")
        case let duration as Duration: return .leaf(Self.duration(duration))
        default: break
        }
        if let custom = value as? any SwiftLiteralArguments {
            return .list(
                prefix: Self.typeName(of: value), open: "(", close: ")",
                items: custom.swiftLiteralArguments.map { (label: $0.label, node: node($0.value)) })
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { node($0.value) } ?? .leaf("nil")
        case .collection:
            return .list(prefix: "", open: "[", close: "]", items: mirror.children.map { (nil, node($0.value)) })
        case .set:
            let items = mirror.children.map { node($0.value) }.sorted { $0.flat < $1.flat }
            return .list(prefix: "", open: "[", close: "]", items: items.map { (nil, $0) })
        case .dictionary:
            let pairs = mirror.children.map { child -> (key: Node, value: Node) in
                let pair = Array(Mirror(reflecting: child.value).children)
                return (node(pair[0].value), node(pair[1].value))
            }
            if pairs.isEmpty { return .leaf("[:]") }
            return .list(
                prefix: "", open: "[", close: "]",
                items: pairs.sorted { $0.key.flat < $1.key.flat }.map { (label: $0.key.flat, node: $0.value) })
        case .enum:
            guard let payload = mirror.children.first, let name = payload.label else {
                return .leaf("." + SwiftName.escaped(String(describing: value)))
            }
            let payloadMirror = Mirror(reflecting: payload.value)
            let items: [(label: String?, node: Node)]
            if payloadMirror.displayStyle == .tuple {
                items = payloadMirror.children.map { element in
                    let label = element.label ?? ""
                    return (label.hasPrefix(".") || label.isEmpty ? nil : label, node(element.value))
                }
            } else {
                items = [(nil, node(payload.value))]
            }
            return .list(prefix: "." + SwiftName.escaped(name), open: "(", close: ")", items: items)
        default:
            let items = mirror.children.compactMap { child -> (label: String?, node: Node)? in
                guard let label = child.label else { return nil }
                let inner = Mirror(reflecting: child.value)
                if inner.displayStyle == .optional, inner.children.isEmpty { return nil }
                return (label, node(child.value))
            }
            return .list(prefix: Self.typeName(of: value), open: "(", close: ")", items: items)
        }
    }

    /// The type's name inside its module: `RequestDescription`, `AuthenticationStepDescription.Kind`.
    static func typeName(of value: Any) -> String {
        let qualified = String(reflecting: type(of: value))
        guard let dot = qualified.firstIndex(of: ".") else { return qualified }
        return String(qualified[qualified.index(after: dot)...])
    }

    /// `.seconds(300)`, `.milliseconds(250)`, or `.nanoseconds(…)` below a millisecond.
    static func duration(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return ".seconds(\(seconds))" }
        if attoseconds % 1_000_000_000_000_000 == 0 { return ".milliseconds(\(seconds * 1000 + attoseconds / 1_000_000_000_000_000))" }
        return ".nanoseconds(\(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))"
    }
}

/// A description struct whose initialiser's arguments are not its stored properties: it
/// lists them itself, in the initialiser's order, each printed by ``SwiftLiteral``.
protocol SwiftLiteralArguments {
    /// The arguments of the initialiser that builds the value, in order; those left out
    /// take their default.
    var swiftLiteralArguments: [(label: String, value: Any)] { get }
}

/// The arguments a ``SwiftLiteralArguments`` value lists, in order: those that are nil are
/// left out, and take their default.
struct SwiftLiteralArgumentList {
    private(set) var arguments: [(label: String, value: Any)] = []

    mutating func add(_ label: String, _ value: Any?) {
        if let value { arguments.append((label, value)) }
    }
}
