import OutlineEngine

/// Something odd about a file that was read anyway (or about content an export could not
/// express), for the caller to show: the OPML, Markdown and plain-text readers return these
/// instead of failing, unless asked to read strictly; the model reader returns them for values
/// in odd but accepted forms (``ModelBundle/warnings``).
///
/// `description` reads like an error: `FILE: where: what. What to do.`, e.g.
/// `feeds.opml: line 7: the outline has no text attribute; its title "Daring Fireball" is used.`
public struct InterchangeWarning: Sendable, Hashable, CustomStringConvertible {
    /// The file concerned, as the user named it.
    public var file: String?
    /// Where: `line 12`, or `item 2.3` for export warnings.
    public var location: String?
    /// The 1-based line, when the warning is about a line of the file.
    public var line: Int?
    /// What is odd, with the offending value.
    public var message: String
    /// What the user can do about it.
    public var hint: String?

    /// A warning about `line` (nil: the whole file) of `file`.
    public init(file: String?, line: Int?, _ message: String, hint: String? = nil) {
        self.file = file
        self.line = line
        self.location = line.map { "line \($0)" }
        self.message = message
        self.hint = hint
    }

    /// A warning about a place that is not a line, such as `item 2.3`.
    public init(file: String?, at location: String?, _ message: String, hint: String? = nil) {
        self.file = file
        self.line = nil
        self.location = location
        self.message = message
        self.hint = hint
    }

    /// `file: line N: message. hint` (or the location instead of the line), ready to show.
    public var description: String {
        let text = DiagnosticText.format(file: file, location: location, message: message, hint: hint)
        return text
    }

    /// The error strict reading throws for this warning: ``StorageError`` code `nonconforming`
    /// with the same file and place, the message without what lenient reading does about it
    /// (``strictMessage``), and the hint ``strictHint`` when it has none.
    public var storageError: StorageError {
        StorageError(.nonconforming, file: file, at: location, strictMessage, hint: hint ?? Self.strictHint)
    }

    /// The message without its last clause when that clause says what lenient reading made of
    /// the oddity (`...; read as its child`, `; kept as it is`, `; ignored`): strict reading
    /// does none of it.
    public var strictMessage: String {
        guard let split = message.range(of: "; ", options: .backwards) else { return message }
        let clause = message[split.upperBound...]
        let lenient = ["read as ", "kept as ", "ignored", "left out", "dropped"]
        return lenient.contains(where: { clause.hasPrefix($0) }) ? String(message[..<split.lowerBound]) : message
    }

    /// What to do about a warning that strict reading turned into an error.
    public static let strictHint = "Correct the file, or read it without strict mode to accept this."
}
