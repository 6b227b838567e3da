import ArgumentParser

/// `--done` / `--not-done` of `outline edit`.
enum DoneState: String, EnumerableFlag {
    case done, notDone

    static func help(for value: DoneState) -> ArgumentHelp? {
        switch value {
        case .done: "Mark the item done."
        case .notDone: "Mark the item not done."
        }
    }
}
