/// A one-line text field over grapheme clusters: the cursor moves by whole characters (an
/// accented letter, a CJK ideograph, an emoji with modifiers), and the view scrolls sideways
/// so the cursor stays visible without ever splitting a character.
public struct LineEditor: Sendable, Equatable {
    /// The text, one element per grapheme cluster.
    public private(set) var characters: [Character]
    /// The cursor: the index of the character it stands before (0...count).
    public private(set) var cursor: Int
    /// The first character shown when the text is wider than the field.
    private var scroll = 0

    /// A field holding `text`, the cursor at its end.
    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// The text typed.
    public var text: String { String(characters) }

    /// Handles an editing key; returns false for keys a line editor does not take (Enter, Esc, …).
    public mutating func handle(_ key: EditorKey) -> Bool {
        switch key {
        case .character(let c): insert(c)
        case .left: cursor = max(cursor - 1, 0)
        case .right: cursor = min(cursor + 1, characters.count)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .backspace, .control("h"):
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete, .control("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .control("w"): deleteWordBackward()
        case .control("u"):
            characters.removeSubrange(0 ..< cursor)
            cursor = 0
        case .control("k"): characters.removeSubrange(cursor...)
        case .paste(let text, _): insert(contentsOf: text)
        default: return false
        }
        return true
    }

    /// Inserts `character` at the cursor (a newline or tab becomes a space: items are one line).
    /// A character that joins the one before it into one grapheme (a combining accent typed
    /// after its letter, a skin-tone modifier, a joiner) is merged into it.
    public mutating func insert(_ character: Character) {
        let c: Character = character.isNewline || character == "\t" ? " " : character
        if cursor > 0 {
            let joined = String(characters[cursor - 1]) + String(c)
            if joined.count == 1, let merged = joined.first {
                characters[cursor - 1] = merged
                return
            }
        }
        characters.insert(c, at: cursor)
        cursor += 1
    }

    /// Inserts pasted `text` at the cursor as one line: its line breaks and tabs become spaces,
    /// its control characters are dropped. Costs the length of the line plus the text's, at
    /// any length of either.
    public mutating func insert(contentsOf text: String) {
        let pasted = Array(PasteBuffer.lines(of: text).joined(separator: " "))
        guard let first = pasted.first else { return }
        // The first character may join the one before the cursor (a pasted combining accent).
        insert(first)
        characters.insert(contentsOf: pasted.dropFirst(), at: cursor)
        cursor += pasted.count - 1
    }

    /// Deletes back from the cursor over spaces, then over the word before them.
    public mutating func deleteWordBackward() {
        var start = cursor
        while start > 0 && characters[start - 1].isWhitespace { start -= 1 }
        while start > 0 && !characters[start - 1].isWhitespace { start -= 1 }
        characters.removeSubrange(start ..< cursor)
        cursor = start
    }

    /// The part of the text shown in a field `width` columns wide and the cursor's column in
    /// it; scrolls so the cursor is visible. Wide characters are never split: a character
    /// that does not fit whole is left out.
    public mutating func visible(width: Int) -> (text: String, cursorColumn: Int) {
        let width = max(width, 2)
        if cursor < scroll { scroll = cursor }
        // Keep the cursor's column (after the characters before it) inside the field: walk back
        // from the cursor, at most a field's width (a long pasted line costs no more).
        var start = cursor
        var before = 0
        while start > scroll {
            let columns = TextWidth.columns(of: characters[start - 1])
            if before + columns >= width { break }
            before += columns
            start -= 1
        }
        scroll = start
        // Scroll back while the field has room left at its end (it was widened, or text at
        // the end was deleted): as much text as fits is shown, the cursor still inside. The
        // text after `scroll` is measured only up to a field's width.
        var tail = cursor == characters.count ? 1 : 0
        var index = scroll
        while index < characters.count && tail <= width {
            tail += TextWidth.columns(of: characters[index])
            index += 1
        }
        while scroll > 0 && tail <= width {
            let columns = TextWidth.columns(of: characters[scroll - 1])
            guard tail + columns <= width else { break }
            scroll -= 1
            tail += columns
        }
        var shown = ""
        var used = 0
        var cursorColumn = 0
        for index in scroll ..< characters.count {
            if index == cursor { cursorColumn = used }
            let columns = TextWidth.columns(of: characters[index])
            guard used + columns <= width else { break }
            shown.append(characters[index])
            used += columns
        }
        if cursor == characters.count { cursorColumn = used }
        return (shown, min(cursorColumn, width - 1))
    }
}
