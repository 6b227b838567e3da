internal import CNcurses
import Foundation
import OutlineEditor

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal, through ncurses with wide characters: starts and ends full-screen mode,
/// reads keys as ``OutlineEditor/EditorKey``s and copies a ``OutlineEditor/ScreenBuffer`` to
/// the screen. Nothing else: what the screen shows is the editor's business.
final class Terminal {
    private(set) var isStarted = false
    /// Whether colours are drawn: the terminal has them and `NO_COLOR` does not forbid them.
    private(set) var usesColor = false
    /// The last screen drawn, to skip drawing when nothing changed.
    private var drawn: ScreenBuffer?
    /// A resize read in the middle of a paste, reported by the next ``readKey(milliseconds:)``.
    private var resizedDuringPaste = false
    /// How long a paste may pause before it is taken as ended without its end marker (a
    /// terminal that never sends one must not keep the editor reading).
    private static let pastePause: Int32 = 1_000

    /// Enters full-screen mode: keys unbuffered and unechoed (Ctrl-S reaches the editor instead
    /// of stopping output), function keys decoded, Esc after 25 ms.
    ///
    /// - Parameter allowColor: false when `NO_COLOR` is set.
    func start(allowColor: Bool) {
        // Wide characters need a UTF-8 locale; take the user's, else C.UTF-8.
        setlocale(LC_ALL, "")
        if !Self.localeIsUTF8() { setlocale(LC_CTYPE, "C.UTF-8") }
        initscr()
        raw()
        noecho()
        nonl()
        keypad(outline_curses_screen(), true)
        set_escdelay(25)
        // Bracketed paste: pasted text arrives between two markers, decoded as key codes of
        // our own (whatever the terminal description says about them) and read as one paste.
        for (marker, code) in [(TerminalKeys.pasteStart, TerminalKeys.pasteStartCode), (TerminalKeys.pasteEnd, TerminalKeys.pasteEndCode)] {
            define_key(marker, 0)
            define_key(marker, code)
        }
        Self.send(TerminalKeys.enableBracketedPaste)
        if allowColor && has_colors() {
            start_color()
            use_default_colors()
            init_pair(1, Int16(COLOR_YELLOW), -1)
            init_pair(2, Int16(COLOR_CYAN), -1)
            init_pair(3, Int16(COLOR_RED), -1)
            usesColor = true
        }
        isStarted = true
        drawn = nil
    }

    /// Leaves full-screen mode, giving the terminal back as it was.
    /// Called on every way out of a session (quit, signal, error: the session's `defer`).
    func stop() {
        guard isStarted else { return }
        endwin()
        Self.send(TerminalKeys.disableBracketedPaste)
        isStarted = false
    }

    /// Writes a control sequence straight to the terminal, outside ncurses' screen updates; a
    /// terminal that is gone is no error here.
    private static func send(_ sequence: String) {
        try? FileHandle.standardOutput.write(contentsOf: Data(sequence.utf8))
    }

    /// The terminal's size in columns and rows.
    var size: (width: Int, height: Int) {
        (Int(max(outline_curses_columns(), 1)), Int(max(outline_curses_lines(), 1)))
    }

    /// Waits up to `milliseconds` for a key; nil when none came.
    /// A bracketed paste comes back as one ``OutlineEditor/EditorKey/paste(_:leftOut:)``.
    func readKey(milliseconds: Int32) -> EditorKey? {
        if resizedDuringPaste {
            resizedDuringPaste = false
            return .resize
        }
        wtimeout(outline_curses_screen(), milliseconds)
        var code: wint_t = 0
        let result = outline_curses_read(&code)
        if result == ERR { return nil }
        if result == KEY_CODE_YES {
            if Int32(code) == KEY_RESIZE { drawn = nil }
            if Int32(code) == TerminalKeys.pasteStartCode { return readPaste() }
            return TerminalKeys.functionKey(Int32(code))
        }
        return TerminalKeys.character(UInt32(code))
    }

    /// Reads a paste's text up to its end marker (or a pause of ``pastePause``), keeping at
    /// most ``OutlineEditor/PasteBuffer/limit`` characters. Function keys inside it (an
    /// escape sequence in the text) are dropped, never acted on.
    private func readPaste() -> EditorKey {
        var buffer = PasteBuffer()
        wtimeout(outline_curses_screen(), Self.pastePause)
        while true {
            var code: wint_t = 0
            let result = outline_curses_read(&code)
            if result == ERR { break }
            if result == KEY_CODE_YES {
                let key = Int32(code)
                if key == TerminalKeys.pasteEndCode { break }
                if key == KEY_RESIZE {
                    drawn = nil
                    resizedDuringPaste = true
                }
                continue
            }
            if let scalar = Unicode.Scalar(UInt32(code)) { buffer.append(scalar) }
        }
        return buffer.key
    }

    /// Copies `screen` to the terminal (ncurses sends only what changed).
    func draw(_ screen: ScreenBuffer) {
        if let drawn, drawn == screen { return }
        var current: attr_t = outline_curses_normal()
        _ = outline_curses_set_attributes(current)
        for row in 0 ..< screen.height {
            var column = 0
            while column < screen.width {
                let cell = screen[row, column]
                if cell.isContinuation {
                    column += 1
                    continue
                }
                let attributes = self.attributes(cell.style)
                if attributes != current {
                    current = attributes
                    _ = outline_curses_set_attributes(current)
                }
                var text = cell.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                _ = outline_curses_write(Int32(row), Int32(column), &text, Int32(text.count))
                column += 1
            }
        }
        _ = outline_curses_set_attributes(outline_curses_normal())
        if let cursor = screen.cursor {
            curs_set(1)
            wmove(outline_curses_screen(), Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        wrefresh(outline_curses_screen())
        drawn = screen
    }

    /// Forgets what was drawn, so the next ``draw(_:)`` repaints everything.
    func invalidate() {
        drawn = nil
        clearok(outline_curses_screen(), true)
    }

    private func attributes(_ style: CellStyle) -> attr_t {
        var attributes = outline_curses_normal()
        if style.contains(.bold) { attributes |= outline_curses_bold() }
        if style.contains(.dim) || style.contains(.strike) { attributes |= outline_curses_dim() }
        if style.contains(.reverse) { attributes |= outline_curses_reverse() }
        if style.contains(.underline) { attributes |= outline_curses_underline() }
        if usesColor {
            if style.contains(.matchColor) {
                attributes |= outline_curses_color_pair(1)
            } else if style.contains(.errorColor) {
                attributes |= outline_curses_color_pair(3)
            } else if style.contains(.markerColor) {
                attributes |= outline_curses_color_pair(2)
            }
        }
        return attributes
    }

    private static func localeIsUTF8() -> Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }
}
