import Yams
@_spi(Generated) import SesameDescription

/// Translates `events.yaml`: the event stream and the events, each with its wire name and
/// payload. Payloads are inline schemas against the shared model table; those that need a
/// type are hoisted into `schemas`.
struct EventsTranslator {
    private(set) var diagnostics: [Diagnostic] = []

    mutating func translate(_ file: ParsedFile?, schemas: inout InlineSchemas) -> EventsIR {
        var result = EventsIR(stream: nil, events: [])
        guard let file, let root = file.root else { return result }
        var reader = NodeReader(file: file.source.path)
        defer { diagnostics += reader.diagnostics }
        guard let entries = reader.mapping(root, "events.yaml", grammar: Grammar.eventsFile) else { return result }
        if let stream = entries["stream"] {
            result.stream = reader.requestLine(stream.value, "the event stream", name: "events")
            result.stream?.value.authenticated = true
        }
        var wireNames: [String: Node] = [:]
        for entry in entries["events"].flatMap({ reader.mapping($0.value, "events") }) ?? [] {
            guard reader.identifier(entry, "event") else { continue }
            guard
                let items = reader.mapping(entry.value, "event '\(entry.key)'", grammar: Grammar.event)
            else { continue }
            let wireName = items["wireName"].flatMap { reader.string($0.value, "wireName") } ?? entry.key
            if let previous = wireNames[wireName] {
                reader.error(
                    "wire name '\(wireName)' is already used by the event at line \(reader.location(of: previous).line)",
                    at: items["wireName"]?.value ?? entry.keyNode)
                continue
            }
            wireNames[wireName] = items["wireName"]?.value ?? entry.keyNode
            var payload: TypeIR?
            if let payloadEntry = items["payload"] {
                payload = schemas.hoistedType(payloadEntry.value, for: entry.key, .payload, reader: &reader)
            }
            var effect: EventEffectIR?
            if let effectEntry = items["effect"], let text = reader.string(effectEntry.value, "effect") {
                effect = EventEffectIR(rawValue: text)
                if effect == nil { reader.error("effect must be 'invalidate', found '\(text)'", at: effectEntry.value) }
            }
            result.events.append(
                EventIR(
                    name: entry.key, wireName: wireName,
                    description: items["description"].flatMap { reader.string($0.value, "description") },
                    payload: payload, effect: effect, location: reader.location(of: entry.keyNode)))
        }
        return result
    }
}
