import CYaml

extension YAMLReader {
    /// How many nodes aliases may add to the files of one schema, all of them together (its
    /// YAML files and the documents its `$ref`s name). An alias is the node it names again,
    /// so a list of ten aliases to a list of ten aliases to … ("billion laughs") grows a file
    /// of a few lines into billions of nodes that every later stage would walk; forty files
    /// each just under a per-file limit would cost forty times as much. Shared blocks in a
    /// real schema add hundreds.
    static let aliasedNodeLimit = 100_000

    /// An error at the repeated node when aliases would add more than what is left of
    /// `budget` (nodes that aliases may still add, shared by the files of one schema, which
    /// starts at `aliasedNodeLimit`), found from libyaml's events before anything is composed.
    /// The nodes this file's aliases add are taken from `budget`.
    ///
    /// It must run before composing: Yams hashes every mapping key to find duplicates while it
    /// composes, and a key that is a collection holding aliases (`{ { p: *a8 }: x }`) made it
    /// walk the whole expansion, a billion nodes, before any check of ours could see the tree
    /// (a libFuzzer finding). Anchors come before their aliases, so one pass knows each
    /// anchor's expanded size when an alias names it: linear in the file.
    ///
    /// An alias is written `*name`, so a file without a `*` has none and is not read twice:
    /// most schemas skip the pass. A syntax error ends the pass without a verdict; composing
    /// then reports it at its position, having read no further than the pass did.
    static func aliasExpansionError(in source: SchemaSource, budget: inout Int) -> Diagnostic? {
        guard source.text.utf8.contains(UInt8(ascii: "*")) else { return nil }
        let limit = max(budget, 0)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(source.text.utf8)
        var added = 0
        defer { budget -= added }
        return bytes.withUnsafeBufferPointer { buffer -> Diagnostic? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            // Expanded size and position of each anchor (a later anchor of the same name wins,
            // as it does for aliases after it); the open collections with their sizes so far.
            var anchors: [String: (size: Int, mark: yaml_mark_t)] = [:]
            var open: [(anchor: String?, size: Int, mark: yaml_mark_t)] = []
            func close(size: Int, anchor: String?, mark: yaml_mark_t) {
                if let anchor { anchors[anchor] = (size, mark) }
                if !open.isEmpty { open[open.count - 1].size = min(open[open.count - 1].size + size, aliasedNodeLimit + 1) }
            }
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_SCALAR_EVENT:
                    close(size: 1, anchor: string(event.data.scalar.anchor), mark: event.start_mark)
                case YAML_SEQUENCE_START_EVENT:
                    open.append((string(event.data.sequence_start.anchor), 1, event.start_mark))
                case YAML_MAPPING_START_EVENT:
                    open.append((string(event.data.mapping_start.anchor), 1, event.start_mark))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let collection = open.popLast() else { return nil }
                    close(size: collection.size, anchor: collection.anchor, mark: collection.mark)
                case YAML_ALIAS_EVENT:
                    // An unknown anchor is composing's error to report.
                    guard let name = string(event.data.alias.anchor), let anchor = anchors[name] else { return nil }
                    added = min(added + anchor.size, limit + 1)
                    if added > limit {
                        let message =
                            limit == aliasedNodeLimit
                            ? "aliases repeat this node until the file would hold over \(aliasedNodeLimit) more nodes; "
                            : "aliases repeat this node until the schema's files would hold over \(aliasedNodeLimit) more nodes "
                                + "(aliases in the files read before this one add \(aliasedNodeLimit - limit)); "
                        return .error(
                            message + "share smaller blocks, or write them out",
                            at: SourceLocation(
                                file: source.path, line: Int(anchor.mark.line) + 1, column: Int(anchor.mark.column) + 1))
                    }
                    close(size: anchor.size, anchor: nil, mark: event.start_mark)
                case YAML_STREAM_END_EVENT:
                    return nil
                default:
                    break
                }
            }
        }
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }
}
