import OutlineEngine

/// An item of a Markdown read whose lines may still follow: a heading (which owns the section
/// under it) or a list item (which owns the lines indented to its content).
struct MarkdownOpenItem {
    /// Where the item's text stands.
    enum Title: Equatable {
        /// Its first paragraph; `open` until a blank line or another block ends it.
        case paragraph(open: Bool)
        /// A code fence or HTML block that started the item, still open.
        case verbatim(MarkdownBlockScanner)
        /// Complete.
        case done
    }

    let object: ManagedObject
    let depth: Int
    /// A list item's marker column; 0 for a heading.
    let indent: Int
    /// The column of a list item's content; 0 for a heading.
    let content: Int
    /// A heading's level (1-6); nil for a list item.
    let headingLevel: Int?
    /// The line the item starts on.
    let line: Int
    var title: [String] = []
    var titleState: Title = .done
    /// Whether the text is a code fence or HTML block (kept exactly) rather than a paragraph.
    var verbatimTitle = false
    var attributes = MarkdownItemAttributes()
    var note = MarkdownNoteReader()
    /// Whether children (or, for a top-level item that takes the text after its list, the end
    /// of the list) came after the note's last line: the note resumes as a new block.
    var hadChildren = false
    /// A heading right after its line, where property lines are read.
    var readsProperties = false

    init(object: ManagedObject, depth: Int, indent: Int, content: Int, headingLevel: Int?, line: Int) {
        self.object = object
        self.depth = depth
        self.indent = indent
        self.content = content
        self.headingLevel = headingLevel
        self.line = line
    }

    /// Whether the item's last block is paragraph text a lazy line may continue.
    var hasOpenParagraph: Bool {
        switch titleState {
        case .paragraph(open: true): true
        case .paragraph(open: false), .done: !hadChildren && note.scanner.inParagraph
        case .verbatim: false
        }
    }

    /// Adds a line of the note that starts at column `offset` of the file (the item's content
    /// column unless the line is lazy), resuming the note first when children came in between.
    mutating func addNoteLine(_ line: Substring, offset: Int? = nil) {
        if hadChildren {
            note.resume()
            hadChildren = false
        }
        note.add(line, offset: offset ?? content)
    }

    /// The item's note scanner as the next note line will see it.
    var noteScanner: MarkdownBlockScanner {
        hadChildren ? MarkdownBlockScanner() : note.scanner
    }
}
