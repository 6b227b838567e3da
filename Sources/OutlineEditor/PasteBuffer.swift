/// Collects the text of one bracketed paste as the terminal delivers it, a Unicode scalar at
/// a time, keeping at most ``limit`` of them: the rest are counted and dropped, so a huge
/// paste costs the time to read it but never more memory. Control characters other than
/// tab, line feed and carriage return are dropped as they come (they never reach the screen).
public struct PasteBuffer: Sendable, Equatable {
    /// The most Unicode scalars a paste keeps (64 Ki).
    public static let limit = 65_536

    /// The scalars kept.
    private var text = ""
    /// How many scalars were kept.
    public private(set) var keptCount = 0
    /// How many scalars past the limit were dropped.
    public private(set) var leftOut = 0
    /// The most scalars this buffer keeps.
    public let capacity: Int

    /// An empty buffer keeping at most `capacity` scalars.
    public init(capacity: Int = PasteBuffer.limit) {
        self.capacity = capacity
    }

    /// Adds `scalar`, unless it is a control character or the buffer is full.
    public mutating func append(_ scalar: Unicode.Scalar) {
        guard !Self.isDropped(scalar) else { return }
        guard keptCount < capacity else {
            leftOut += 1
            return
        }
        text.unicodeScalars.append(scalar)
        keptCount += 1
    }

    /// The paste as a key for ``OutlineEditor/handle(_:)``.
    public var key: EditorKey {
        .paste(text, leftOut: leftOut)
    }

    /// Whether `scalar` is a control character a paste drops: C0 controls but tab, line feed
    /// and carriage return; DEL; C1 controls.
    public static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 9, 10, 13: false
        case 0 ..< 32, 0x7F ..< 0xA0: true
        default: false
        }
    }

    /// The lines of a pasted `text` as item texts: split at line breaks (LF, CR or CRLF),
    /// tabs turned into spaces, control characters dropped.
    public static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for character in text {
            if character.isNewline {
                lines.append(line)
                line = ""
            } else if character == "\t" {
                line.append(" ")
            } else if !character.unicodeScalars.contains(where: isDropped) {
                line.append(character)
            }
        }
        lines.append(line)
        return lines
    }
}
