import Foundation
import OutlineEngine

@testable import OutlineKit

/// Random edits of an outline for property tests: inserts, cascade deletes, moves across
/// parents, indent and outdent, collapse and expand, text and done changes, groups of edits
/// as one step, undo, redo, rollback, and (when a hook is given) scratch commits.
final class RandomOutlineEditor {
    let document: OutlineDocument
    var context: EditingContext { document.context }
    /// Extra step kinds a test adds (a scratch-context commit, say), tried now and then.
    var extraSteps: [(inout SeededRandom) throws -> String] = []

    init(document: OutlineDocument) {
        self.document = document
    }

    /// Every item, the root first, in document order.
    func items() -> [ManagedObject] {
        var all = [document.root]
        document.walk { item, _ in
            all.append(item)
            return true
        }
        return all
    }

    func someItem(_ random: inout SeededRandom, includingRoot: Bool = false) -> ManagedObject {
        let all = items()
        if !includingRoot && all.count > 1 { return all[1 + random.next(upTo: all.count - 1)] }
        return all[random.next(upTo: all.count)]
    }

    static let words = ["apple", "banana", "bread", "cherry", "beet", "date", "Bacon", "fig", "basil", "kale"]

    func grow(count: Int, random: inout SeededRandom) throws {
        for _ in 0 ..< count { _ = try insert(&random) }
        for item in items().dropFirst() where random.chance(20) { try document.setCollapsed(true, of: item) }
    }

    private func insert(_ random: inout SeededRandom) throws -> String {
        let parent = someItem(&random, includingRoot: true)
        let position = random.next(upTo: document.children(of: parent).count + 1)
        try document.insertItem(Self.words[random.next(upTo: Self.words.count)], under: parent, at: position, done: random.chance(30))
        return "insert at \(position)"
    }

    /// One random step; returns what it did.
    @discardableResult
    func step(_ random: inout SeededRandom) throws -> String {
        let hasItems = document.itemCount > 1
        if !extraSteps.isEmpty && random.chance(15) { return try extraSteps[random.next(upTo: extraSteps.count)](&random) }
        let roll = random.next(upTo: 100)
        do {
            switch roll {
            case 0 ..< 14: return try insert(&random)
            case 14 ..< 22 where hasItems:
                try document.deleteItem(someItem(&random))
                return "delete"
            case 22 ..< 34 where hasItems:
                let item = someItem(&random)
                let target = someItem(&random, includingRoot: true)
                let count = document.children(of: target).count
                try document.moveItem(item, under: target, at: random.next(upTo: count + 1))
                return "move"
            case 34 ..< 42 where hasItems:
                try document.indent(someItem(&random))
                return "indent"
            case 42 ..< 48 where hasItems:
                try document.outdent(someItem(&random))
                return "outdent"
            case 48 ..< 60 where hasItems:
                let item = someItem(&random)
                try document.setCollapsed(!document.isCollapsed(item), of: item)
                return "toggle collapsed"
            case 60 ..< 66 where hasItems:
                try document.setText(Self.words[random.next(upTo: Self.words.count)], of: someItem(&random))
                return "text"
            case 66 ..< 70 where hasItems:
                let item = someItem(&random)
                try document.setDone(!document.isDone(item), of: item)
                return "done"
            case 70 ..< 78:
                let count = random.next(upTo: 4) + 2
                var rng = random
                try context.perform("Group") {
                    for _ in 0 ..< count { _ = try? stepInGroup(&rng) }
                }
                random = rng
                return "group of \(count)"
            case 78 ..< 88:
                guard context.canUndo else { return "nothing to undo" }
                context.undo()
                return "undo"
            case 88 ..< 95:
                guard context.canRedo else { return "nothing to redo" }
                context.redo()
                return "redo"
            case 95 ..< 97:
                context.rollback()
                return "rollback"
            default:
                return try insert(&random)
            }
        } catch is OutlineError {
            return "refused edit"
        } catch is EngineError {
            return "refused edit"
        }
    }

    /// An edit inside a group (no undo or rollback).
    private func stepInGroup(_ random: inout SeededRandom) throws {
        guard document.itemCount > 1 else {
            _ = try insert(&random)
            return
        }
        switch random.next(upTo: 6) {
        case 0: _ = try insert(&random)
        case 1: try document.deleteItem(someItem(&random))
        case 2:
            let target = someItem(&random, includingRoot: true)
            try document.moveItem(someItem(&random), under: target, at: random.next(upTo: document.children(of: target).count + 1))
        case 3: try document.indent(someItem(&random))
        case 4:
            let item = someItem(&random)
            try document.setCollapsed(!document.isCollapsed(item), of: item)
        default: try document.setText(Self.words[random.next(upTo: Self.words.count)], of: someItem(&random))
        }
    }
}
