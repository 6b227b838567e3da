import OutlineEngine

// Tests address entities and properties of their small schemas by position; literals keep
// those tests readable. The library itself takes only typed indices from variables.
extension EntityIndex: ExpressibleByIntegerLiteral {
    /// The index at position `value`, written as a literal in a test.
    public init(integerLiteral value: Int) { self.init(value) }
}

extension AttributeIndex: ExpressibleByIntegerLiteral {
    /// The index at position `value`, written as a literal in a test.
    public init(integerLiteral value: Int) { self.init(value) }
}

extension RelationshipIndex: ExpressibleByIntegerLiteral {
    /// The index at position `value`, written as a literal in a test.
    public init(integerLiteral value: Int) { self.init(value) }
}
