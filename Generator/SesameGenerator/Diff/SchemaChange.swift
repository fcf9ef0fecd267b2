/// One difference between two versions of a schema, graded by what it does to apps that
/// were built against the old one.
public struct SchemaChange: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Grade: String, Sendable, Hashable, Codable, Comparable {
        /// Apps keep working and keep compiling.
        case compatible
        /// Worth a look (a looser or tighter rule); apps keep working.
        case warning
        /// Apps already shipped stop working, or app code stops compiling.
        case breaking

        public static func < (lhs: Grade, rhs: Grade) -> Bool {
            let order: [Grade] = [.compatible, .warning, .breaking]
            return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
        }
    }

    /// A stable identifier of the kind of change, such as `operation.removed` or
    /// `property.type-changed`, for tools that filter findings.
    public var kind: String
    public var grade: Grade
    public var message: String
    /// Where the change is: in the new schema, or in the old one for a removal.
    public var location: SourceLocation?

    public init(kind: String, grade: Grade, message: String, location: SourceLocation?) {
        self.kind = kind
        self.grade = grade
        self.message = message
        self.location = location
    }

    /// `Schema/auth.yaml:12:3: breaking: operation 'me' was removed [operation.removed]`.
    public var description: String {
        let prefix = location.map { "\($0): " } ?? ""
        return "\(prefix)\(grade.rawValue): \(message) [\(kind)]"
    }
}
