/// The errors of ``OPMLReader``, each naming the file and line, what is wrong and what to do.
extension OPMLReader {
    /// The hint for files that are not OPML at all.
    static let notOPMLHint = "This is not an OPML file; export the outline as OPML from the app that made it and read that file."

    static func empty(file: String) -> StorageError {
        StorageError(
            .unknownFormat, file: file, "the file is empty",
            hint: "An OPML file starts with <?xml or <opml; check that this is the file you meant.")
    }

    static func htmlPage(file: String, line: Int) -> StorageError {
        StorageError(
            .unknownFormat, file: file, at: "line \(line)", "this is an HTML web page, not an OPML file",
            hint: "Save the OPML file itself (the page's export or download link) and read that.")
    }

    static func notOPML(file: String, line: Int, root: String) -> StorageError {
        if root.lowercased() == "html" { return htmlPage(file: file, line: line) }
        return StorageError(
            .unknownFormat, file: file, at: "line \(line)", "the root element is <\(root)>, not <opml>",
            hint: notOPMLHint)
    }

    static func tooDeep(file: String, line: Int, limit: Int) -> StorageError {
        StorageError(
            .limitExceeded, file: file, at: "line \(line)",
            "the outline is nested more than \(limit) levels deep (the reader's limit)",
            hint: limit >= Options.depthCeiling
                ? "The file is damaged or made to exhaust memory; no outline this tool reads or writes is nested deeper."
                : "The file is damaged or made to exhaust memory; if the nesting is real, read it with a higher "
                    + "maxDepth (at most \(Options.depthCeiling)).")
    }

    /// The first fatal error libxml2 reported, as a ``StorageError``.
    static func notWellFormed(file: String, _ error: LibXML2Error, declaredEntities: Bool, maxDepth: Int) -> StorageError {
        let line = max(1, error.line)
        let reason = error.message
        let at = "line \(line)"
        switch error.kind {
        case .excessiveDepth:
            return tooDeep(file: file, line: line, limit: maxDepth)
        case .overLimit:
            return StorageError(
                .limitExceeded, file: file, at: at, "the XML is over libxml2's safety limits (\(reason))",
                hint: "No outline needs a single name or value that long; the file is damaged or made to exhaust memory.")
        case .empty:
            // libxml2's word for input without any element, such as plain text.
            return StorageError(
                .unknownFormat, file: file, at: at, "the file holds no XML element",
                hint: "An OPML file starts with <?xml or <opml; check that this is the file you meant.")
        case .declarationNotFirst:
            return StorageError(
                .malformedXML, file: file, at: at, "not well-formed XML (\(reason))",
                hint: "Delete what comes before <?xml ...?>: the XML declaration must be the very first thing in the file.")
        case .undeclaredEntity(let name) where declaredEntities:
            return StorageError(
                .malformedXML, file: file, at: at,
                "the file uses the entity &\(name); declared in its DOCTYPE, and entities are not expanded, for safety",
                hint: "Replace each &\(name); with the text it stands for.")
        case .undeclaredEntity:
            return StorageError(
                .malformedXML, file: file, at: at, "not well-formed XML (\(reason))",
                hint: "XML knows only &amp; &lt; &gt; &quot; and &apos;; write other characters as themselves "
                    + "or as character references such as &#160;.")
        case .encoding:
            return StorageError(
                .malformedXML, file: file, at: at, "not well-formed XML (\(reason))",
                hint: "Declare the file's encoding in its first line, such as "
                    + "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>, or save the file as UTF-8.")
        case .other:
            return StorageError(
                .malformedXML, file: file, at: at, "not well-formed XML (\(reason))",
                hint: "The file is damaged or is not OPML; export it again from the app that made it.")
        }
    }

    /// Rejects an HTML page that starts with `<!doctype html` before parsing.
    ///
    /// libxml2 stops at the lower-case doctype with a confusing syntax error; other HTML pages
    /// reach ``notOPML(file:line:root:)`` through their `<html>` root element.
    static func rejectHTML(_ start: UnsafeRawBufferPointer, file: String) throws {
        var index = 0
        var line = 1
        if start.count >= 3 && start[0] == 0xEF && start[1] == 0xBB && start[2] == 0xBF { index = 3 }
        while index < start.count, [0x20, 0x09, 0x0A, 0x0D].contains(start[index]) {
            if start[index] == 0x0A { line += 1 }
            index += 1
        }
        let head = String(decoding: UnsafeRawBufferPointer(rebasing: start[index ..< min(start.count, index + 14)]), as: UTF8.self)
        if head.lowercased() == "<!doctype html" { throw htmlPage(file: file, line: line) }
    }
}

/// A problem libxml2 reported, copied out of its C struct.
struct LibXML2Error: Sendable {
    enum Kind: Sendable, Equatable {
        case empty, declarationNotFirst, encoding, excessiveDepth, overLimit, other
        case undeclaredEntity(String)
    }

    var kind: Kind
    /// libxml2's message, trimmed.
    var message: String
    var line: Int
}
