/// One key the editor understands, independent of any terminal library: the terminal layer
/// turns what it reads into these, and tests type them directly.
public enum EditorKey: Hashable, Sendable {
    /// A printable character (a grapheme cluster: `é`, `漢`, `👍🏽`).
    case character(Character)
    /// A letter typed with Control held (`.control("s")` is Ctrl-S).
    case control(Character)
    /// The arrow keys.
    case up, down, left, right
    /// Home, End, Page Up, Page Down.
    case home, end, pageUp, pageDown
    /// Enter, Esc, Tab and Shift-Tab.
    case enter, escape, tab, backTab
    /// Backspace and Delete.
    case backspace, delete
    /// The terminal changed size; the next render uses the new size.
    case resize
    /// Text pasted into the terminal (bracketed paste: it arrives between `ESC[200~` and
    /// `ESC[201~`), never taken as keys. `leftOut` counts the characters past
    /// ``PasteBuffer/limit`` that were read and dropped.
    case paste(String, leftOut: Int = 0)

    /// The keys of `text`, one per character (for tests and scripted input).
    public static func typing(_ text: String) -> [EditorKey] {
        text.map { .character($0) }
    }
}
