/// The screen as the editor draws it: rows of cells, each holding one grapheme cluster and
/// its style. A wide character fills its cell and marks the next as its continuation, so a
/// row never holds half a character. The terminal layer copies it to the terminal; tests read
/// it as text.
public struct ScreenBuffer: Sendable, Equatable {
    /// One cell of the screen.
    public struct Cell: Sendable, Equatable {
        /// The character drawn here; empty for the right half of a wide character.
        public var text: String
        /// How it is drawn.
        public var style: CellStyle

        /// A space without style.
        public static let blank = Cell(text: " ", style: [])
        /// The right half of a wide character.
        public var isContinuation: Bool { text.isEmpty }
    }

    /// Columns.
    public private(set) var width: Int
    /// Rows.
    public private(set) var height: Int
    /// The cells, row after row.
    public private(set) var cells: [Cell]
    /// Where the terminal cursor goes (row, column), or nil to hide it.
    public var cursor: (row: Int, column: Int)?

    /// A blank screen of `width` × `height` cells (at least 1 × 1).
    public init(width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// Whether two screens show the same cells and cursor.
    public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.cells == rhs.cells
            && lhs.cursor?.row == rhs.cursor?.row && lhs.cursor?.column == rhs.cursor?.column
    }

    /// Clears every cell, resizing to `width` × `height` when they differ.
    public mutating func clear(width: Int, height: Int) {
        let width = max(width, 1)
        let height = max(height, 1)
        if width != self.width || height != self.height {
            self.width = width
            self.height = height
            cells = Array(repeating: .blank, count: width * height)
        } else {
            for index in cells.indices { cells[index] = .blank }
        }
        cursor = nil
    }

    /// The cell at `row`, `column` (both 0-based, inside the screen).
    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Writes `text` on `row` from `column`, stopping before `limit` (the row's end by
    /// default); a wide character that does not fit whole is left out. Control characters
    /// are drawn as `?`.
    ///
    /// - Returns: the column after the last cell written.
    @discardableResult
    public mutating func write<S: StringProtocol>(_ text: S, row: Int, column: Int, style: CellStyle = [], limit: Int? = nil) -> Int {
        guard row >= 0 && row < height else { return column }
        let end = min(limit ?? width, width)
        var x = max(column, 0)
        for character in text {
            var shown = character
            var columns = TextWidth.columns(of: character)
            if columns == 0 {
                if character.unicodeScalars.first.map({ $0.value < 0x20 || $0.value == 0x7F }) ?? true {
                    shown = "?"
                    columns = 1
                } else {
                    continue
                }
            }
            guard x + columns <= end else { break }
            cells[row * width + x] = Cell(text: String(shown), style: style)
            if columns == 2 { cells[row * width + x + 1] = Cell(text: "", style: style) }
            x += columns
        }
        return x
    }

    /// Sets the style of cells `from..<to` on `row` (adding to what they have).
    public mutating func addStyle(_ style: CellStyle, row: Int, from: Int = 0, to: Int? = nil) {
        guard row >= 0 && row < height else { return }
        for x in max(from, 0) ..< min(to ?? width, width) { cells[row * width + x].style.formUnion(style) }
    }

    /// The text of `row`, wide characters once, trailing spaces removed.
    public func line(_ row: Int) -> String {
        var text = ""
        for x in 0 ..< width { text += cells[row * width + x].text }
        while text.last == " " { text.removeLast() }
        return text
    }

    /// Every row's text (see ``line(_:)``).
    public var lines: [String] { (0 ..< height).map(line) }
}
