/// The `SUBQUERY` variables in scope while binding (innermost last), and how many slots
/// evaluation needs for them.
final class PredicateScope {
    var variables: [(name: String, slot: Int, entity: EntityIndex)] = []
    var slotCount = 0

    func lookup(_ name: String) -> (slot: Int, entity: EntityIndex)? {
        variables.last(where: { $0.name == name }).map { ($0.slot, $0.entity) }
    }
}
