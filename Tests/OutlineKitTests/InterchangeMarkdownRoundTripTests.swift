import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

@testable import OutlineKit

/// Markdown export styles and the trees they read back as; every word of a file in the outline.
@Suite struct InterchangeMarkdownRoundTripTests {
    /// The list style, and headings with one, two and six heading levels.
    static let styles: [MarkdownExportOptions] = [
        MarkdownExportOptions(), MarkdownExportOptions(style: .headings, headingLevels: 1),
        MarkdownExportOptions(style: .headings, headingLevels: 2), MarkdownExportOptions(style: .headings, headingLevels: 6),
    ]

    private func read(_ data: Data, file: String, strict: Bool = false) throws -> ImportedOutline {
        try MarkdownImporter.read(data, file: file, options: ImportOptions(strict: strict))
    }

    @Test(arguments: InterchangeFixtures.markdownFixtures, styles)
    func fixtureReadsBackAsTheSameTreeInEveryStyle(fixture: String, options: MarkdownExportOptions) throws {
        let imported = try read(try InterchangeFixtures.markdown(fixture), file: fixture)
        let exported = MarkdownExporter.write(imported.document, head: imported.head, options: options)
        #expect(exported.warnings.isEmpty)
        let hasItems = imported.document.itemCount > 1
        let again = try read(exported.data, file: "again.md", strict: hasItems)
        #expect(again.document.fullSummary == imported.document.fullSummary, "\(exported.data.utf8Text)")
        #expect(again.head == imported.head)
        #expect(MarkdownExporter.write(again.document, head: again.head, options: options).data == exported.data)
        SampleOutlines.checkInvariants(again.document)
    }

    @Test(arguments: InterchangeFixtures.markdownFixtures)
    func everyWordOfTheFileIsInTheOutline(fixture: String) throws {
        let data = try InterchangeFixtures.markdown(fixture)
        let imported = try read(data, file: fixture)
        let words = Self.words(of: imported)
        var missing: [String] = []
        for line in InterchangeText.lines(of: data.utf8Text) {
            missing += Self.contentWords(of: line).filter { word in
                !(words.contains(word) || words.contains(Self.unescaped(word))
                    || (word.hasSuffix("::") && words.contains(String(word.dropLast(2)))))
            }
        }
        #expect(missing.isEmpty, "\(fixture): \(missing)")
    }

    /// The check above fails when the outline loses text (here: a note dropped).
    @Test func theWordCheckNoticesALostNote() throws {
        let data = Data("# Heading\n\nA paragraph with unusualword.\n".utf8)
        let imported = try read(data, file: "lost.md")
        try imported.document.setNote(nil, of: try #require(imported.document.items.first))
        let words = Self.words(of: imported)
        #expect(!words.contains("unusualword."))
        #expect(words.contains("Heading"))
    }

    /// Every whitespace-separated word the outline holds: texts, notes, extra attributes
    /// (names, values and spellings, and the states mapped ones spell), and the head's fields.
    static func words(of imported: ImportedOutline) -> Set<String> {
        var strings: [String] = []
        let document = imported.document
        for item in document.items {
            strings.append(document.text(of: item) ?? "")
            strings.append(document.note(of: item) ?? "")
            for entry in (try? document.extraAttributes(of: item))??.entries ?? [] {
                switch entry {
                case .kept(let name, let value): strings += [name, value]
                case .mapped(let name, let spelling):
                    strings += [name, spelling ?? ""]
                    if name == "collapsed" { strings.append(document.isCollapsed(item) ? "true" : "false") }
                }
            }
        }
        for field in imported.head.fields { strings += [field.name, field.value] }
        return Set(strings.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) })
    }

    /// The words of a line of Markdown, without the syntax the outline holds as structure: a
    /// list marker and task box, a heading's `#` marks, a setext underline.
    static func contentWords(of line: Substring) -> [String] {
        var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        if line.allSatisfy({ $0 == "=" || $0 == " " }) || line.allSatisfy({ $0 == "-" || $0 == " " }) { return [] }
        guard let first = words.first else { return [] }
        if MarkdownSyntax.listMarker(first[...]) != nil {
            words.removeFirst()
            if words.starts(with: ["[", "]"]) { words.removeFirst(2) } else if ["[x]", "[X]"].contains(words.first) { words.removeFirst() }
        } else if first.allSatisfy({ $0 == "#" }) && first.count <= 6 {
            words.removeFirst()
            if words.count > 0, words.last!.allSatisfy({ $0 == "#" }) { words.removeLast() }
        }
        return words
    }

    /// `word` without the backslashes that escape ASCII punctuation (CommonMark escapes).
    static func unescaped(_ word: String) -> String {
        var result = ""
        var characters = word.makeIterator()
        while let character = characters.next() {
            if character == "\\" {
                if let next = characters.next() {
                    if !(next.isASCII && next.isPunctuation || next.isASCII && next.isSymbol) { result.append(character) }
                    result.append(next)
                } else {
                    result.append(character)
                }
            } else {
                result.append(character)
            }
        }
        return result
    }

    // MARK: Generated documents

    static func withoutCreated(_ line: String) -> String {
        line.replacing(/created=[^=]*GMT/, with: "created=-")
    }

    /// Lines that are markup of every kind Markdown has, or escapes of it.
    static let trickyLines = [
        "- a", "* b", "+ c", "1. d", "2) e", "# f", "## g #", "```", "~~~~", "```js", "<div>", "</div>", "<!--", "-->", "<pre>",
        "</pre>", "---", "===", "***", "* * *", "> quote", "key:: value", "id:: 42", "k\\:: v", "\\", "\\\\", "    code",
        "\t- tab", "[ ] box", "[x] done", "TODO task", "DONE task", "plain text", "<br>", "| a | b |", "[ref]: /url", "\\- escaped",
        "1\\. escaped", "#", "a #", "a \\#", "[[link]]", "**bold**", "`code`", "  indented", "<details>", "<?php", "?>",
        "\tcode", "  \t- mixed", "- [ ]", "<script>", "</script>", "<!-- x -->", "~~~", "      - deep", "trailing  ", "1.", "-",
        "| --- |", ">", "> - q", "    > q", "\\```", "key::", "a:: b:: c", "é ü", "- - -", "_ _ _", "-- x", "\\TODO", "[x]",
    ]

    /// A document of `count` items in a random tree, with texts and notes made of ``trickyLines``,
    /// done states, task slots and properties.
    static func randomDocument(count: Int, using generator: inout some RandomNumberGenerator) throws -> OutlineDocument {
        let document = try SampleOutlines.emptyDocument()
        var items: [ManagedObject] = []
        func lines(_ range: ClosedRange<Int>) -> [String] {
            (0 ..< Int.random(in: range, using: &generator)).map { _ in trickyLines.randomElement(using: &generator)! }
        }
        for _ in 0 ..< count {
            let parent = items.isEmpty || Int.random(in: 0 ..< 4, using: &generator) == 0 ? nil : items.randomElement(using: &generator)
            var text = lines(1 ... (Int.random(in: 0 ..< 3, using: &generator) == 0 ? 3 : 1))
            // Markdown loses the leading white space of a text, and a heading's trailing white space.
            text[0] = String(text[0].drop { $0 == " " || $0 == "\t" })
            text[text.count - 1] = String(text[text.count - 1].reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            var note = lines(0 ... 5)
            while let first = note.first, first.allSatisfy({ $0 == " " || $0 == "\t" }) { note.removeFirst() }
            while let last = note.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { note.removeLast() }
            let item = try document.insertItem(
                text.joined(separator: "\n"), under: parent, note: note.isEmpty ? nil : note.joined(separator: "\n"),
                done: Bool.random(using: &generator))
            // Task slots as Markdown has them: a marker spelled as the done state says, or a box
            // on an open item (a done item's box needs no slot).
            var entries: [ExtraAttributes.Entry] = []
            let done = document.isDone(item)
            switch Int.random(in: 0 ..< 3, using: &generator) {
            case 0: entries.append(.mapped(name: "_status", spelling: done ? "DONE" : "TODO"))
            case 1 where !done: entries.append(.mapped(name: "_status", spelling: nil))
            default: break
            }
            if Bool.random(using: &generator) { entries.append(.kept(name: "id", value: lines(1 ... 1)[0])) }
            if !entries.isEmpty { try document.setExtraAttributes(ExtraAttributes([.mapped(name: "text", spelling: nil)] + entries), of: item) }
            items.append(item)
        }
        return document
    }

    /// Files made of ``trickyLines`` (and headings, setext underlines, nested items, properties),
    /// each line indented at random: whatever tree a file reads as, both export styles read back
    /// as that tree.
    @Test(arguments: styles)
    func generatedMarkdownReadsBackAsTheSameTree(options: MarkdownExportOptions) throws {
        var generator = SeededGenerator(seed: 0xABCDE1)
        let pool =
            Self.trickyLines + [
                "", "", "", "# H1", "## H2", "### H3", "Para", "Setext", "=====", "-----", "title:: x", "collapsed:: true", "- [ ] t",
                "  - sub", "    - subsub", "\t- tab", "\t\t- deeper", "\t  id:: 7", "- DONE x", "  collapsed:: false", "  - TODO y", "\t1) z",
            ]
        for round in 0 ..< 300 {
            let source =
                (0 ..< Int.random(in: 1 ... 40, using: &generator)).map { _ in
                    String(repeating: " ", count: [0, 0, 0, 1, 2, 3, 4, 6, 8, 10].randomElement(using: &generator)!) + pool.randomElement(
                        using: &generator)!
                }.joined(separator: "\n") + "\n"
            let first = try read(Data(source.utf8), file: "source-\(round).md")
            let exported = MarkdownExporter.write(first.document, head: first.head, options: options)
            let again = try read(exported.data, file: "again-\(round).md", strict: first.document.itemCount > 1)
            #expect(again.document.fullSummary == first.document.fullSummary, "round \(round):\n\(source)\n---\n\(exported.data.utf8Text)")
            #expect(again.head == first.head, "round \(round)")
        }
    }

    @Test(arguments: styles)
    func generatedDocumentsOfMarkupReadBackExactly(options: MarkdownExportOptions) throws {
        var generator = SeededGenerator(seed: 0x5EED_0F_0D0C)
        for round in 0 ..< 40 {
            let document = try Self.randomDocument(count: 30, using: &generator)
            let exported = MarkdownExporter.write(document, options: options)
            #expect(exported.warnings.isEmpty)
            let again = try read(exported.data, file: "generated-\(round).md", strict: true)
            // Creation dates are written only for items read with one (OPML's `created`).
            #expect(again.document.fullSummary == document.fullSummary.map(Self.withoutCreated), "round \(round):\n\(exported.data.utf8Text)")
            #expect(MarkdownExporter.write(again.document, options: options).data == exported.data, "round \(round)")
        }
    }
}

/// A small deterministic generator (SplitMix64), so that generated tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
