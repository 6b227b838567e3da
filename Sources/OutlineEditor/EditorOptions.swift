/// How an editor session looks and what it allows.
public struct EditorOptions: Sendable, Equatable {
    /// The file's name for the status line.
    public var fileName: String
    /// The format's name for the status line (`binary`, `XML`).
    public var formatName: String
    /// Browse only: edits are refused (collapsing, expanding and zooming still work).
    public var isReadOnly: Bool
    /// Whether colours may be used; off when `NO_COLOR` is set or the terminal has none.
    public var usesColor: Bool

    /// Options for the file `fileName` in the format `formatName`.
    public init(fileName: String, formatName: String, isReadOnly: Bool = false, usesColor: Bool = true) {
        self.fileName = fileName
        self.formatName = formatName
        self.isReadOnly = isReadOnly
        self.usesColor = usesColor
    }

    /// Whether `environment` asks for no colour (`NO_COLOR` set to anything non-empty).
    public static func colorAllowed(environment: [String: String]) -> Bool {
        (environment["NO_COLOR"] ?? "").isEmpty
    }
}
