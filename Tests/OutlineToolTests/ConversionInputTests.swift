import Foundation
import OutlineKit
import Testing

@testable import OutlineTool

/// How `outline convert` chooses the reader for an input: by content, then extension.
@Suite struct ConversionInputTests {
    @Test(arguments: [
        ("<p align=\"center\">\n  <img src=\"logo.png\">\n</p>\n\n# Project\n", "", ConversionInput.interchange(.markdown)),
        ("<p align=\"center\">\n</p>\n", "md", .interchange(.markdown)),
        ("---\ntitle: x\n---\nSome text.\n", "", .interchange(.markdown)),
        ("# Heading\n", "", .interchange(.markdown)),
        ("Groceries\n\tMilk\n", "", .interchange(.text)),
        ("Groceries\n\tMilk\n", "md", .interchange(.markdown)),
        ("# Not a heading in text\n", "txt", .interchange(.text)),
        ("<?xml version=\"1.0\"?>\n<opml version=\"2.0\">", "xml", .interchange(.opml)),
        ("<!DOCTYPE html>\n<html>", "opml", .interchange(.opml)),
        ("<?xml version=\"1.0\"?>\n<rss>", "", .store),
        ("<?xml version=\"1.0\"?>\n<rss>", "opml", .interchange(.opml)),
        ("<?xml version=\"1.0\"?>\n<database>", "md", .store),
        ("Just text", "outline", .store),
        // An empty Markdown or text file is an empty outline; an empty document is damage.
        ("", "md", .interchange(.markdown)),
        ("", "txt", .interchange(.text)),
        ("", "outline", .store),
        // Plain text whose later lines read as Markdown is text: only the first line decides.
        ("Groceries\n- Milk\n# not a heading\n", "", .interchange(.text)),
        ("- Milk\nGroceries\n", "", .interchange(.markdown)),
        ("\n\n# Heading after blank lines\n", "", .interchange(.markdown)),
        // Mostly text with a NUL byte goes to the reader its name says, which names the line.
        ("# Head\n- item \u{0}two\n", "md", .interchange(.markdown)),
        ("# Head\n- item \u{0}two\n", "", .store),
    ])
    func inputIsReadByContentThenExtension(content: String, ext: String, input: ConversionInput) {
        #expect(ConversionInput.detect(prefix: Array(content.utf8), pathExtension: ext) == input)
    }

    @Test func theResultNamesTheFormatTheInputWasReadAs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outline-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let markdown = folder.appendingPathComponent("list").path
        try Data("- One\n  - Two\n".utf8).write(to: URL(fileURLWithPath: markdown))
        let stored = folder.appendingPathComponent("list.xml").path
        let first = try DocumentConverter.convert(input: markdown, output: stored, to: .xml, model: try OutlineSchemas.bundle)
        #expect(first.inputFormat == .markdown)
        let second = try DocumentConverter.convert(
            input: stored, output: folder.appendingPathComponent("list.opml").path,
            to: .opml, model: try OutlineSchemas.bundle)
        #expect(second.inputFormat == .xml)
        #expect(ConversionFormat(.binary) == .binary && ConversionFormat(.text) == .text)
    }
}
