import OutlineKit
import OutlineStorage

/// What `outline history` reports: the steps a document keeps, in the order they were made,
/// which of them are undone, and why a history cannot be used when it cannot.
public struct HistoryReport: Sendable {
    /// The document's path as given.
    public var file: String
    /// How many steps the document keeps.
    public var stepLimit: Int
    /// The steps `outline undo` takes back, oldest first (the last is undone next).
    public var undoSteps: [String]
    /// The undone steps `outline redo` makes again, in the order it takes them.
    public var redoSteps: [String]
    /// Why the document's history cannot be used, when it cannot.
    public var problem: StorageError?

    /// One line per step, numbered in the order they were made; `>` marks the step `outline undo`
    /// takes back next and undone steps say so. Control characters in names are shown as `\u{..}`.
    public func renderText() -> String {
        if let problem {
            return "\(file): the undo history cannot be used: \(problem.message). "
                + "`outline history \(file) --clear` drops it; the document itself is fine.\n"
        }
        if undoSteps.isEmpty && redoSteps.isEmpty {
            return "\(file) keeps no undo history (it keeps the last \(stepLimit) steps once there are some).\n"
        }
        var text =
            "\(file): \(count(undoSteps.count)) to undo, \(count(redoSteps.count)) to redo "
            + "(the document keeps the last \(stepLimit)).\n"
        let width = String(undoSteps.count + redoSteps.count).count
        for (index, name) in (undoSteps + redoSteps).enumerated() {
            let number = String(index + 1)
            let marker = index == undoSteps.count - 1 ? ">" : " "
            let undone = index >= undoSteps.count ? " (undone)" : ""
            text += "\(marker) \(String(repeating: " ", count: width - number.count))\(number)  \(ControlCharacters.escaped(name))\(undone)\n"
        }
        return text
    }

    /// The same as JSON: `steps` in the order they were made, each with `undone`.
    public func renderJSON() -> String {
        var steps: [JSONValue] = []
        for (index, name) in (undoSteps + redoSteps).enumerated() {
            steps.append(.object([("step", .int(index + 1)), ("name", .string(name)), ("undone", .bool(index >= undoSteps.count))]))
        }
        return JSONValue.object([
            ("file", .string(file)),
            ("usable", .bool(problem == nil)),
            ("problem", .string(problem?.description)),
            ("limit", .int(stepLimit)),
            ("undo", .int(undoSteps.count)),
            ("redo", .int(redoSteps.count)),
            ("steps", .array(steps)),
        ]).rendered()
    }

    private func count(_ steps: Int) -> String {
        steps == 0 ? "nothing" : steps == 1 ? "1 step" : "\(steps) steps"
    }
}
