import Foundation
import OutlineStorage
import Testing

@Suite struct OPMLWriterTests {
    private func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func writesStrictOPMLTwo() {
        let head = OPMLHead(
            version: "1.0", attributes: [OPMLAttribute("xmlns:dc", "http://purl.org/dc/elements/1.1/")],
            fields: [
                OPMLHeadField("title", "A & B"), OPMLHeadField("expansionState", ""),
                OPMLHeadField("dc:creator", "Jane", attributes: [OPMLAttribute("role", "author")]),
            ])
        var writer = OPMLWriter(head: head)
        writer.startOutline([OPMLAttribute("text", "Parent")])
        writer.startOutline([OPMLAttribute("text", "Leaf"), OPMLAttribute("_note", "n")])
        writer.endOutline()
        writer.endOutline()
        writer.startOutline([OPMLAttribute("text", "Open at the end")])
        #expect(
            text(writer.finish()) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
                \t<head>
                \t\t<title>A &amp; B</title>
                \t\t<expansionState/>
                \t\t<dc:creator role="author">Jane</dc:creator>
                \t</head>
                \t<body>
                \t\t<outline text="Parent">
                \t\t\t<outline text="Leaf" _note="n"/>
                \t\t</outline>
                \t\t<outline text="Open at the end"/>
                \t</body>
                </opml>

                """)
    }

    @Test func anEmptyHeadIsWrittenAsAnEmptyElement() {
        #expect(
            text(OPMLWriter(head: OPMLHead()).finish()) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <opml version="2.0">
                \t<head/>
                \t<body>
                \t</body>
                </opml>

                """)
    }

    @Test func attributeValuesKeepNewlinesTabsAndMarkup() throws {
        var writer = OPMLWriter(head: OPMLHead())
        writer.startOutline([OPMLAttribute("text", "<b>\"Tom\" & 'Jerry'</b>"), OPMLAttribute("_note", "line 1\nline 2\ttab\r\nend")])
        let data = writer.finish()
        #expect(
            text(data).contains(#"<outline text="&lt;b&gt;&quot;Tom&quot; &amp; 'Jerry'&lt;/b&gt;" _note="line 1&#10;line 2&#9;tab&#13;&#10;end"/>"#))
        let read = try OPMLReader.read(data, file: "out.opml")
        #expect(read.outlines[0]["text"] == "<b>\"Tom\" & 'Jerry'</b>")
        #expect(read.outlines[0]["_note"] == "line 1\nline 2\ttab\r\nend")
    }

    @Test func headTextKeepsNewlinesAndCarriageReturns() throws {
        let data = OPMLWriter.write(OPMLFile(head: OPMLHead(fields: [OPMLHeadField("docs", "a\nb\r\nc\t<d>")])))
        #expect(text(data).contains("<docs>a\nb&#13;\nc\t&lt;d&gt;</docs>"))
        #expect(try OPMLReader.read(data, file: "out.opml").head.fields[0].value == "a\nb\r\nc\t<d>")
    }

    @Test func charactersXMLCannotHoldBecomeReplacementCharacters() throws {
        var writer = OPMLWriter(head: OPMLHead())
        writer.startOutline([OPMLAttribute("text", "bell\u{07} nul\u{00} \u{FFFE}\u{FFFF} fine\u{FFFD}é")])
        #expect(writer.replacedCharacters == 4)
        let read = try OPMLReader.read(writer.finish(), file: "out.opml")
        #expect(read.outlines[0]["text"] == "bell\u{FFFD} nul\u{FFFD} \u{FFFD}\u{FFFD} fine\u{FFFD}é")
    }

    @Test func indentationStopsGrowingAtTheCap() {
        var file = OPMLFile()
        for depth in 1 ... 40 { file.outlines.append(OPMLOutline(depth: depth, attributes: [OPMLAttribute("text", "\(depth)")])) }
        let lines = text(OPMLWriter.write(file)).split(separator: "\n")
        let deepest = lines.first { $0.hasSuffix("text=\"40\"/>") }
        #expect(deepest?.prefix { $0 == "\t" }.count == OPMLWriter.maxIndentation)
    }

    @Test(arguments: OPMLFixtures.readable)
    func readWriteReadKeepsHeadAndOutlines(fixture: String) throws {
        let original = try OPMLReader.read(try OPMLFixtures.data(fixture), file: fixture)
        let written = OPMLWriter.write(original)
        let again = try OPMLReader.read(written, file: "again.opml")
        #expect(again.head.version == "2.0")
        #expect(again.head.attributes == original.head.attributes)
        #expect(
            again.head.fields.map { [$0.name, $0.value] + $0.attributes.map(\.description) }
                == original.head.fields.map { [$0.name, $0.value] + $0.attributes.map(\.description) })
        #expect(again.outlines.map(\.summary) == original.outlines.map(\.summary))
        #expect(again.warnings.isEmpty)
        #expect(OPMLWriter.write(again) == written, "writing is deterministic")
    }

    @Test func aHundredThousandLevelsAreWrittenInLinearSpace() throws {
        var writer = OPMLWriter(head: OPMLHead())
        for level in 1 ... 100_000 { writer.startOutline([OPMLAttribute("text", "\(level)")]) }
        #expect(writer.openOutlines == 100_000)
        let data = writer.finish()
        #expect(data.count < 100_000 * 128)
        var count = 0
        try OPMLReader.read(data, file: "deep.opml") { if case .outline = $0 { count += 1 } }
        #expect(count == 100_000)
    }

    @Test func headSurvivesItsPropertyList() throws {
        let head = try OPMLReader.read(try OPMLFixtures.data("Namespaces.opml"), file: "Namespaces.opml").head
        var withAttributes = head
        withAttributes.fields.append(OPMLHeadField("link", "", attributes: [OPMLAttribute("rel", "me"), OPMLAttribute("href", "x")]))
        let restored = try OPMLHead(propertyListValue: withAttributes.propertyListValue)
        #expect(restored.version == withAttributes.version)
        #expect(restored.attributes == withAttributes.attributes)
        #expect(
            restored.fields.map { [$0.name, $0.value] + $0.attributes.map(\.description) }
                == withAttributes.fields.map { [$0.name, $0.value] + $0.attributes.map(\.description) })
        #expect(try OPMLHead(propertyListValue: OPMLHead().propertyListValue) == OPMLHead())
    }

    @Test(arguments: [
        (PropertyListValue.string("x"), "not a dictionary"),
        (.dictionary([("fields", .array([.array([.string("title")])]))]), "a field is not a name, a value and attribute pairs"),
        (.dictionary([("attributes", .array([.array([.string("a"), .integer(1)])]))]), "an attribute holds something other than strings"),
        (.dictionary([("colour", .string("red"))]), "unknown key \"colour\""),
    ])
    func damagedHeadPropertyListIsReported(value: PropertyListValue, problem: String) throws {
        let error = try #require(throws: StorageError.self) { try OPMLHead(propertyListValue: value) }
        #expect(error.code == .corrupt)
        #expect(
            error.description == "metadata OPMLHead: the stored OPML head is damaged (\(problem)). "
                + "Remove the OPMLHead metadata key; OPML exports then write a new head.")
    }
}
