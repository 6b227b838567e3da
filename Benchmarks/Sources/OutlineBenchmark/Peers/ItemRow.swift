/// One outline item as a Swift app without the library would hold it: a flat struct with its
/// parent's id, its position among its siblings, its text and its done state. Both peers
/// store the generated tree as an array of these (a nested struct tree would make Codable
/// recurse once per level; a flat array with parent ids is what such apps keep).
struct ItemRow: Codable, Sendable, Equatable {
    var id: Int64
    var parentID: Int64?
    var ordering: Int64
    var title: String
    var done: Bool

    /// The items of `tree`, the root included, in document order; ids are 1-based indices.
    static func rows(of tree: OutlineTree) -> [ItemRow] {
        (0 ..< tree.count).map { index in
            let parent = tree.parents[index]
            return ItemRow(
                id: Int64(index + 1), parentID: parent < 0 ? nil : Int64(parent) + 1,
                ordering: Int64(tree.orders[index]), title: tree.titles[index], done: index % 7 == 3)
        }
    }
}
