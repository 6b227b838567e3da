/// How a screen cell is drawn. Colours are only used when the editor's ``EditorOptions/usesColor``
/// is on (never with `NO_COLOR`); the other attributes are not colours.
public struct CellStyle: OptionSet, Hashable, Sendable {
    /// The style's bits.
    public let rawValue: UInt16
    /// A style from its bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Messages about failures, the help title.
    public static let bold = CellStyle(rawValue: 1 << 0)
    /// Done items and notes: drawn fainter.
    public static let dim = CellStyle(rawValue: 1 << 1)
    /// The cursor row, the status line and the help overlay.
    public static let reverse = CellStyle(rawValue: 1 << 2)
    /// Text being typed; search matches without colour.
    public static let underline = CellStyle(rawValue: 1 << 3)
    /// Done items: struck through where the terminal can (shown as dim otherwise).
    public static let strike = CellStyle(rawValue: 1 << 4)
    /// Colour: search matches.
    public static let matchColor = CellStyle(rawValue: 1 << 8)
    /// Colour: expand and collapse markers.
    public static let markerColor = CellStyle(rawValue: 1 << 9)
    /// Colour: messages about failures.
    public static let errorColor = CellStyle(rawValue: 1 << 10)

    /// Every colour style.
    public static let colors: CellStyle = [.matchColor, .markerColor, .errorColor]
}
