import OutlineEngine

// Tests address entities and properties of their small schemas by position; literals keep
// those tests readable. The library itself takes only typed indices from variables.
extension EntityIndex: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self.init(value) }
}

extension AttributeIndex: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self.init(value) }
}

extension RelationshipIndex: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) { self.init(value) }
}
