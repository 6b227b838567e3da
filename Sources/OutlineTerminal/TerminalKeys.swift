internal import CNcurses
import OutlineEditor

/// ncurses key codes as ``OutlineEditor/EditorKey``s.
enum TerminalKeys {
    /// Turns the terminal's bracketed paste mode on: pasted text comes between
    /// ``pasteStart`` and ``pasteEnd`` instead of as typed keys.
    static let enableBracketedPaste = "\u{1B}[?2004h"
    /// Turns bracketed paste mode off again (the shell after the editor expects it off).
    static let disableBracketedPaste = "\u{1B}[?2004l"
    /// What the terminal sends before pasted text.
    static let pasteStart = "\u{1B}[200~"
    /// What the terminal sends after pasted text.
    static let pasteEnd = "\u{1B}[201~"
    /// The key codes ncurses is told to return for the markers: above ncurses' own and
    /// the codes it gives terminal-specific keys.
    static let pasteStartCode: Int32 = 0x7E00
    /// The key code ncurses returns for ``pasteEnd``.
    static let pasteEndCode: Int32 = 0x7E01

    /// A function key (`KEY_UP`, `KEY_BTAB`, …); nil for one the editor does not use.
    static func functionKey(_ code: Int32) -> EditorKey? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_BTAB: .backTab
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        case KEY_ENTER: .enter
        case KEY_RESIZE: .resize
        default: nil
        }
    }

    /// A character read: control characters become keys, the rest ``EditorKey/character(_:)``.
    static func character(_ value: UInt32) -> EditorKey? {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1 ... 26:
            return .control(Character(Unicode.Scalar(UInt8(value) + 0x60)))
        case 0 ..< 32: return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }
}
