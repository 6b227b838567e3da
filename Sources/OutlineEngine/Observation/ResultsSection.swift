/// A section of a ``ResultsController``'s results: its name and how many rows it has.
public struct ResultsSection: Hashable, Sendable {
    /// The section key path's value as text (empty for a missing value, and for the one
    /// section of a controller without a section key path).
    public var name: String
    /// The number of rows.
    public var count: Int

    /// A section called `name` with `count` rows.
    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}

/// A section as the controller keeps it: the key value that defines it and its row count.
struct ResultsSectionState {
    var term: PredicateTerm
    var count: Int

    var name: String {
        switch term {
        case .null, .object: ""
        case .value(.string(let text)): text
        case .value(let value): value.displayString
        }
    }
}

/// A row of a ``ResultsController``: the object with the section value and sort keys it had
/// when it was placed (which stay right until the object changes, and then it is placed again).
struct ResultsEntry: ListRow {
    var object: ManagedObject
    var section: PredicateTerm
    var keys: [PredicateTerm]
}
