import Foundation
import OutlineEngine
import OutlineKit

/// `/`, `n` and `N`: searching the shown subtree by text or by predicate.
extension OutlineEditor {
    /// Finds the items matching `query` under the zoom root, in document order, and goes to the
    /// first one after the cursor. A query that reads as a predicate (`done == NO`,
    /// `text BEGINSWITH "A"`) is one, as in `outline find`; anything else matches item text and
    /// notes, ignoring case.
    func runSearch(_ query: String) {
        guard !query.isEmpty else {
            search = nil
            return
        }
        var wanted: Set<ManagedObject>?
        if Self.looksLikePredicate(query) {
            do {
                wanted = Set(try document.context.fetch(try document.fetchRequest(query)))
            } catch {
                return show("Search: \(Self.describe(error))", isError: true)
            }
        }
        let top = rows.topItem
        var matches: [ManagedObject] = []
        var start: Int?
        var passedCursor = cursor == nil
        document.walk(from: top) { item, _ in
            let matched = wanted.map { $0.contains(item) } ?? matchesText(query, item)
            if matched {
                if passedCursor && start == nil { start = matches.count }
                matches.append(item)
            }
            if item == cursor { passedCursor = true }
            return true
        }
        guard !matches.isEmpty else {
            search = nil
            return show("No match for “\(query)”.", isError: true)
        }
        search = SearchState(query: query, matches: matches, index: start ?? 0)
        reveal(matches[start ?? 0])
        showMatchPosition(wrapped: start == nil)
    }

    /// `n` / `N`: the next or previous match, wrapping around.
    func goToMatch(forward: Bool) {
        guard var state = search else { return show("No search yet: / searches.") }
        let context = document.context
        if state.matches.contains(where: { !context.exists($0) }) { state.matches.removeAll { !context.exists($0) } }
        guard !state.matches.isEmpty else {
            search = nil
            return show("No match for “\(state.query)” any more.", isError: true)
        }
        let count = state.matches.count
        var wrapped = false
        if forward {
            state.index += 1
            if state.index >= count {
                state.index = 0
                wrapped = true
            }
        } else {
            state.index -= 1
            if state.index < 0 {
                state.index = count - 1
                wrapped = true
            }
        }
        state.index = min(max(state.index, 0), count - 1)
        search = state
        reveal(state.matches[state.index])
        showMatchPosition(wrapped: wrapped)
    }

    /// Expands the collapsed ancestors of `item` (one undo step, `Expand`) and moves the cursor to it.
    func reveal(_ item: ManagedObject) {
        let hidden = rows.collapsedAncestors(of: item)
        if !hidden.isEmpty {
            perform {
                try document.context.perform(nil) {
                    for ancestor in hidden { try document.setCollapsed(false, of: ancestor) }
                }
            }
        }
        cursor = rows.nearestRow(to: item)?.item ?? cursor
        cursorRow = outlineHeight / 3
    }

    private func showMatchPosition(wrapped: Bool) {
        guard let state = search else { return }
        let position = "Match \(state.index + 1) of \(state.matches.count) for “\(state.query)”"
        show(wrapped && state.matches.count > 1 ? position + " (wrapped around)" : position)
    }

    private func matchesText(_ query: String, _ item: ManagedObject) -> Bool {
        if let text = document.text(of: item), text.range(of: query, options: [.caseInsensitive]) != nil { return true }
        if let note = document.note(of: item), note.range(of: query, options: [.caseInsensitive]) != nil { return true }
        return false
    }

    /// Whether `query` is meant as a predicate: it compares (`=`, `<`, `>`, `!`), quotes a string
    /// (`text CONTAINS[c] "milk"`) or is `TRUEPREDICATE`; plain words are a text search.
    static func looksLikePredicate(_ query: String) -> Bool {
        if query.contains(where: { "=<>!\"'".contains($0) }) { return true }
        let trimmed = query.trimmingCharacters(in: .whitespaces).uppercased()
        return trimmed == "TRUEPREDICATE" || trimmed == "FALSEPREDICATE"
    }
}
