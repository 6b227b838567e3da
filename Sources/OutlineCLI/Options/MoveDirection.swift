import ArgumentParser

/// `--up`, `--down`, `--indent`, `--outdent` of `outline move`.
enum MoveDirection: String, EnumerableFlag {
    case up, down, indent, outdent

    static func help(for value: MoveDirection) -> ArgumentHelp? {
        switch value {
        case .up: "Swap the item with its previous sibling."
        case .down: "Swap the item with its next sibling."
        case .indent: "Make the item the last child of its previous sibling."
        case .outdent: "Make the item the next sibling of its parent."
        }
    }
}
