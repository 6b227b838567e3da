import Foundation
import OutlineKit
import OutlineStorage
import Testing

/// `outline convert` with Markdown as people write it, the two Markdown styles, and inputs that
/// only look like XML.
@Suite struct ConvertMarkdownTests {
    @Test(arguments: ["README.md", "README"])
    func aReadmeThatStartsWithHTMLImportsWithItsHeadingsAsLevels(name: String) throws {
        let box = try CLISandbox()
        try box.copyFixture("Markdown/ReadmeWithHTML.md", as: name)
        let converted = try box.run("convert", name, "readme.outline")
        #expect(converted.status == 0 && converted.stderr == "", "\(converted)")
        let shown = try box.run("show", "readme.outline", "--depth", "3")
        let lines = shown.stdout.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }
        #expect(
            lines.joined(separator: "\n") == """
                1 Lantern
                  Lantern turns plain folders of notes into a searchable
                  web page. It runs offline.
                  1.1 Table of contents
                    1.1.1 [Installation](#installation) [+1]
                    1.1.2 [Usage](#usage)
                  1.2 Installation
                      Clone the repository and build:

                      ```sh
                      git clone https://example.org/lantern.git
                      - this dash is code, not an item
                      # neither is this hash
                      ```
                    1.2.1 Requirements [+3]
                          <details>
                          <summary>Building on Windows</summary>

                          </details>
                  1.3 Usage
                          lantern serve ~/notes

                      Open `http://localhost:8080` afterwards.

                      [tests-badge]: https://example.org/badges/tests.svg
                      [tests-url]: https://example.org/lantern/actions
                      [license-badge]: https://example.org/badges/mit.svg

                """)
        // The HTML before the first heading is kept and written back.
        let back = try box.run("convert", "readme.outline", "back.md")
        #expect(back.status == 0 && back.stderr == "", "\(back)")
        #expect(String(decoding: try box.bytes("back.md"), as: UTF8.self).hasPrefix("<!-- HEADER -->\n<p align=\"center\">\n"))
    }

    @Test(arguments: ["Changelog.md", "FrontMatter.md", "LogseqPage.md", "ReadmeWithHTML.md"])
    func bothMarkdownStylesReadBackAsTheSameOutline(fixture: String) throws {
        let box = try CLISandbox()
        try box.copyFixture("Markdown/\(fixture)", as: "in.md")
        #expect(try box.run("convert", "in.md", "in.outline").status == 0)
        let original = try box.run("show", "in.outline", "--json").shownOutline()
        for (name, options) in [
            ("list.md", ["--markdown-style", "list"]), ("default.md", []),
            ("headings.md", ["--markdown-style", "headings"]),
            ("three.md", ["--markdown-style", "headings", "--heading-levels", "3"]),
        ] {
            let written = try box.run(["convert", "in.outline", name] + options)
            #expect(written.status == 0 && written.stderr == "", "\(name): \(written)")
            let back = try box.run("convert", name, "\(name).outline", "--strict")
            #expect(back.status == 0, "\(name): \(back)")
            #expect(try box.run("show", "\(name).outline", "--json").shownOutline() == original, "\(name)")
        }
        let headings = String(decoding: try box.bytes("three.md"), as: UTF8.self)
        #expect(headings.contains("\n## "), "\(headings)")
        #expect(String(decoding: try box.bytes("list.md"), as: UTF8.self) == String(decoding: try box.bytes("default.md"), as: UTF8.self))
    }

    /// Properties become OPML attributes and the front matter and preamble head fields, so
    /// Markdown written from the OPML is the Markdown written from the file itself, except that
    /// OPML spells Logseq's `TODO` and `DONE` as OmniOutliner's `_status`, which reads back as a box.
    @Test(arguments: ["FrontMatter.md", "LogseqPage.md", "ReadmeWithHTML.md", "Changelog.md"])
    func markdownThroughOPMLComesBackTheSame(fixture: String) throws {
        let box = try CLISandbox()
        try box.copyFixture("Markdown/\(fixture)", as: "in.md")
        #expect(try box.run("convert", "in.md", "direct.md").status == 0)
        #expect(try box.run("convert", "in.md", "via.opml").status == 0)
        let back = try box.run("convert", "via.opml", "via.md", "--strict")
        #expect(back.status == 0 && back.stderr == "", "\(back)")
        let direct = String(decoding: try box.bytes("direct.md"), as: UTF8.self)
        let markers = direct.replacingOccurrences(of: "- TODO ", with: "- [ ] ").replacingOccurrences(of: "- DONE ", with: "- [x] ")
        #expect(String(decoding: try box.bytes("via.md"), as: UTF8.self) == markers)
    }

    @Test(arguments: [
        (["--markdown-style", "table"], "--markdown-style table is not a style; use one of list, headings."),
        (["--markdown-style", "headings", "--heading-levels", "7"], "--heading-levels must be between 1 and 6 (got 7)."),
        (["--markdown-style", "headings", "--heading-levels", "0"], "--heading-levels must be between 1 and 6 (got 0)."),
        (["--heading-levels", "2"], "--heading-levels applies only with --markdown-style headings."),
        (["--markdown-style", "headings", "--to", "opml"], "--markdown-style and --heading-levels apply only to Markdown output."),
    ])
    func badMarkdownOptionsAreBadUsage(options: [String], message: String) throws {
        let box = try CLISandbox()
        #expect(try box.run("create", "todo.outline").status == 0)
        let result = try box.run(["convert", "todo.outline", "todo.md"] + options)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result)")
        #expect(!box.exists("todo.md"))
    }

    @Test func aUTF16XMLStoreConverts() throws {
        let box = try CLISandbox()
        try box.writeDocument("doc.xml", version: "Outline 3", format: .xml, items: [("Größe", ["Kind"])])
        // The store's own declaration says UTF-16; the embedded model (a string inside) keeps its own.
        var utf8 = String(decoding: try box.bytes("doc.xml"), as: UTF8.self)
        let declaration = try #require(utf8.range(of: "<?xml version=\"1.0\""))
        utf8.replaceSubrange(declaration, with: "<?xml version=\"1.0\" encoding=\"UTF-16\"")
        try Data([0xFF, 0xFE] + utf8.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }).write(to: URL(fileURLWithPath: box.path("utf16.xml")))
        #expect(FileContent.detect(Array(try box.bytes("utf16.xml").prefix(FileContent.prefixSize))) == .xmlStore(.utf16LittleEndian))
        let converted = try box.run("convert", "utf16.xml", "doc.outline")
        #expect(converted.status == 0, "\(converted)")
        #expect(try box.run("show", "doc.outline").stdout == "1 Größe\n  1.1 Kind\n")
        #expect(try box.run("show", "utf16.xml").stdout == "1 Größe\n  1.1 Kind\n")
    }

    /// show and find read Markdown as it is (they used to call it "not an Outline document");
    /// editing commands still need a document.
    @Test func showAndFindReadAMarkdownFileAsItIs() throws {
        let box = try CLISandbox()
        try box.copyFixture("Markdown/ReadmeWithHTML.md", as: "README.md")
        let converted = try box.run("convert", "README.md", "readme.outline")
        #expect(converted.status == 0)
        let shown = try box.run("show", "README.md", "--json")
        #expect(shown.status == 0 && shown.stderr == "", "\(shown)")
        #expect(try shown.shownOutline() == box.run("show", "readme.outline", "--json").shownOutline())
        let found = try box.run("find", "README.md", "text == \"Usage\"")
        #expect(found.status == 0 && found.stdout == "1.3 Usage\n", "\(found)")
        #expect(try box.run("find", "README.md", "TRUEPREDICATE", "--count").stdout == "11\n")
        let edited = try box.run("add", "README.md", "X")
        #expect(edited.status == 1)
        #expect(
            edited.stderr == "Error: README.md: byte 0: not an Outline document: it is UTF-8 text, neither binary nor XML "
                + "(it starts with \"<!-- HEADER -->\"). If it is Markdown or plain text, import it into a new document first; "
                + "otherwise check that the right file was chosen.\n")
    }
}
