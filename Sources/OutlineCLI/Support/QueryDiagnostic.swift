import Foundation
import OutlineEditor
import OutlineKit

/// A query error shown with the query under it and a caret under the column it names:
///
///     Error: doc.outline: column 6 of the query: unknown operator "CONTIANS". ...
///       text CONTIANS "milk"
///            ^
///
/// The location is said as a person counts: characters, not Unicode scalars (an emoji with a
/// skin tone is one), and the line first when the query has several.
struct QueryDiagnostic: Error, CustomStringConvertible, LocalizedError {
    let error: OutlineError
    let query: String
    /// The location as the engine gives it: `column N of the query`, N in Unicode scalars.
    let scalarLocation: String?

    init(error: OutlineError, query: String) {
        var error = error
        scalarLocation = error.location
        if let column = Self.column(of: error.location) { error.location = Self.placeAsCounted(column, in: query) }
        self.error = error
        self.query = query
    }

    var description: String {
        guard let caret = Self.caret(for: scalarLocation, in: query) else { return error.description }
        return error.description + "\n" + caret
    }

    /// `column C of the query`, or `line L, column C of the query` for a query of several
    /// lines, for the Unicode scalar column `column`, C counted in characters within its line.
    static func placeAsCounted(_ column: Int, in query: String) -> String {
        let scalars = Array(query.unicodeScalars)
        let before = scalars.prefix(max(0, min(column - 1, scalars.count)))
        var line = 1
        var lineStart = 0
        var previous: Unicode.Scalar?
        for (index, scalar) in before.enumerated() {
            if scalar == "\n" && previous != "\r" || scalar == "\r" { line += 1 }
            if scalar == "\n" || scalar == "\r" { lineStart = index + 1 }
            previous = scalar
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: before[lineStart...])
        let characters = String(text).count + 1 + max(0, column - 1 - scalars.count)
        let multiline = query.contains { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        return multiline ? "line \(line), column \(characters) of the query" : "column \(characters) of the query"
    }

    var errorDescription: String? { description }

    /// Runs `body`; a query error it throws that names a column of `query` comes out with the caret.
    static func showingColumn<R>(of query: String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch var error as OutlineError where error.code == .invalidQuery && column(of: error.location) != nil {
            if error.message.contains("has no argument") {
                // Placeholders take arguments from code; the tool has none to give.
                error.hint =
                    "A query typed here has no arguments for placeholders: write the value itself, or a $variable given with --var NAME=VALUE."
            }
            throw QueryDiagnostic(error: error, query: query)
        }
    }

    /// N of a location "column N of the query".
    static func column(of location: String?) -> Int? {
        guard let location, location.hasPrefix("column "), location.hasSuffix(" of the query") else { return nil }
        return Int(location.dropFirst("column ".count).dropLast(" of the query".count))
    }

    /// The line of `query` holding the column (columns count Unicode scalars from 1), indented
    /// two spaces, and a caret line under the column as a terminal shows it (wide characters
    /// take two columns). Control characters show as `?`; a long line is
    /// cut to about 80 characters around the column.
    static func caret(for location: String?, in query: String) -> String? {
        guard let column = column(of: location), column >= 1 else { return nil }
        let scalars = Array(query.unicodeScalars)
        guard column <= scalars.count + 1 else { return nil }
        var lineStart = 0
        for (i, c) in scalars.enumerated() where i < column - 1 && (c == "\n" || c == "\r") { lineStart = i + 1 }
        var lineEnd = lineStart
        while lineEnd < scalars.count, scalars[lineEnd] != "\n", scalars[lineEnd] != "\r" { lineEnd += 1 }
        let at = column - 1
        let from = max(lineStart, at - 50)
        let to = min(lineEnd, max(at + 30, from + 80))
        var line = from > lineStart ? "…" : ""
        var before = ""
        for i in from ..< to {
            let c = scalars[i]
            let shown: Unicode.Scalar = c == "\t" ? "\t" : (c.value < 0x20 || (0x7F ... 0x9F).contains(c.value)) ? "?" : c
            line.unicodeScalars.append(shown)
            if i < at { before.unicodeScalars.append(shown) }
        }
        if to < lineEnd { line += "…" }
        // The caret goes as many terminal columns in as the text before it takes: a wide
        // (East Asian, emoji) character two, a combining mark none, a tab a tab.
        var marker = from > lineStart ? " " : ""
        for character in before {
            marker += character == "\t" ? "\t" : String(repeating: " ", count: TextWidth.columns(of: character))
        }
        return "  " + line + "\n  " + marker + "^"
    }
}
