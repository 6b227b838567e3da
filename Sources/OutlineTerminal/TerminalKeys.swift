internal import CNcurses
import OutlineEditor

/// ncurses key codes as ``OutlineEditor/EditorKey``s.
enum TerminalKeys {
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
