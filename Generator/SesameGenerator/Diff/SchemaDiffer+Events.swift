@_spi(Generated) import SesameDescription

/// The error catalogue and the events.
extension SchemaDiffer {
    mutating func compareErrors() {
        if old.errors.codeField != new.errors.codeField || old.errors.messageField != new.errors.messageField {
            add(
                "errors.envelope-changed", .breaking, "error bodies keep their code or message elsewhere",
                at: new.errors.errors.first?.location)
        }
        let newByCode = Dictionary(uniqueKeysWithValues: new.errors.errors.map { ($0.code, $0) })
        for error in old.errors.errors {
            guard let updated = newByCode[error.code] else {
                add("error.removed", .breaking, "error code '\(error.code)' was removed", at: error.location)
                continue
            }
            if error.category != updated.category {
                add(
                    "error.category-changed", .warning,
                    "error '\(error.code)' changed category from \(error.category.rawValue) to \(updated.category.rawValue)",
                    at: updated.location)
            }
        }
        let codes = Set(old.errors.errors.map(\.code))
        for error in new.errors.errors where !codes.contains(error.code) {
            add("error.added", .compatible, "error code '\(error.code)' was added; older SDKs report it as .unknown", at: error.location)
        }
    }

    mutating func compareEvents() {
        if old.events.stream?.value.path != new.events.stream?.value.path
            || old.events.stream?.value.method != new.events.stream?.value.method
        {
            add("events.stream-changed", .breaking, "the event stream moved", at: new.events.stream?.location)
        }
        let newByName = Dictionary(uniqueKeysWithValues: new.events.events.map { ($0.name, $0) })
        for event in old.events.events {
            guard let updated = newByName[event.name] else {
                add("event.removed", .breaking, "event '\(event.name)' was removed", at: event.location)
                continue
            }
            if event.wireName != updated.wireName {
                add("event.wire-name-changed", .breaking, "event '\(event.name)' changed its wire name", at: updated.location)
            }
            if !sameType(event.payload, updated.payload) {
                add("event.payload-changed", .breaking, "event '\(event.name)' changed its payload type", at: updated.location)
            }
            if event.effect != updated.effect {
                add("event.effect-changed", .warning, "event '\(event.name)' changed its effect on the session", at: updated.location)
            }
        }
        let names = Set(old.events.events.map(\.name))
        for event in new.events.events where !names.contains(event.name) {
            add("event.added", .compatible, "event '\(event.name)' was added; older SDKs deliver it as .unknown", at: event.location)
        }
    }
}
