/// One key the editor understands, independent of any terminal library: the terminal layer
/// turns what it reads into these, and tests type them directly.
public enum EditorKey: Hashable, Sendable {
    /// A printable character (a grapheme cluster: `é`, `漢`, `👍🏽`).
    case character(Character)
    /// A letter typed with Control held (`.control("s")` is Ctrl-S).
    case control(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case enter, escape, tab, backTab
    case backspace, delete
    /// The terminal changed size; the next render uses the new size.
    case resize

    /// The keys of `text`, one per character (for tests and scripted input).
    public static func typing(_ text: String) -> [EditorKey] {
        text.map { .character($0) }
    }
}
