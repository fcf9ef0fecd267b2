@_spi(Generated) import SesameDescription

extension SchemaCheck {
    /// Whether an object the model's own container holds surely meets a check that asks only
    /// which properties are present (``checksPresenceOnly``): every `required` name and every
    /// name `dependentRequired` asks for are there (`contains`), and the model's `declared`
    /// properties present already reach `minProperties`.
    ///
    /// `false` says only that this shortcut cannot tell: the caller then runs the whole check
    /// (every key, `allKeys`), which decides and names the failure. So the shortcut changes
    /// what is accepted or refused in nothing, and skips listing the object's keys when the
    /// declared properties suffice.
    func isMet(byPresenceIn container: KeyedDecodingContainer<PropertyKey>, declared: [PropertyKey]) -> Bool {
        for name in check.required where !container.contains(PropertyKey(name)) { return false }
        for (name, needed) in sortedDependentRequired where container.contains(PropertyKey(name)) {
            for other in needed where !container.contains(PropertyKey(other)) { return false }
        }
        if let minimum = check.minProperties {
            // The declared names are distinct, so each one present is one more property.
            var present = 0
            for key in declared where present < minimum && container.contains(key) { present += 1 }
            if present < minimum { return false }
        }
        return true
    }
    /// Whether an object being encoded surely meets a check that asks only which properties
    /// are present (``checksPresenceOnly``), told by `isPresent`, which says whether the
    /// encoding writes a name, and by the model's `declared` properties; as
    /// ``isMet(byPresenceIn:declared:)`` does on decode. `false` says only that this cannot
    /// tell: the caller then checks the JSON the value encodes to.
    func isMet(byPresence isPresent: (String) -> Bool, declared: [PropertyKey]) -> Bool {
        for name in check.required where !isPresent(name) { return false }
        for (name, needed) in sortedDependentRequired where isPresent(name) {
            for other in needed where !isPresent(other) { return false }
        }
        if let minimum = check.minProperties {
            var present = 0
            for key in declared where present < minimum && isPresent(key.stringValue) { present += 1 }
            if present < minimum { return false }
        }
        return true
    }
}
