import Foundation
import OutlineKit
import Testing

@testable import OutlineTool

/// Splitting `outline batch` scripts into commands and words, as a shell splits them.
@Suite struct BatchScriptTests {
    static func words(_ text: String) throws -> [[String]] {
        try BatchScript(parsing: text, name: "script").commands.map(\.words)
    }

    @Test func wordsQuotesAndEscapesSplitAsInAShell() throws {
        #expect(try Self.words(#"add "Milk and eggs" --under 1"#) == [["add", "Milk and eggs", "--under", "1"]])
        #expect(try Self.words(#"add 'it''s' --note="a b""#) == [["add", "its", "--note=a b"]])
        #expect(try Self.words(#"add "say \"hi\" \\ \n $HOME `x`""#) == [["add", #"say "hi" \ \n $HOME `x`"#]])
        #expect(try Self.words(#"add "\$ \`""#) == [["add", "$ `"]])
        #expect(try Self.words(##"add a\ b c#d \#e"##) == [["add", "a b", "c#d", "#e"]])
        #expect(try Self.words("add \"\" ''") == [["add", "", ""]])
        #expect(try Self.words("add\ttabbed\r\n") == [["add", "tabbed"]])
    }

    @Test func commentsBlankLinesAndContinuations() throws {
        let script = try BatchScript(
            parsing: """
                # a comment

                add One   # after a command
                add Two#notacomment
                add "a
                b" \\
                  --under 1
                add 'last'
                """, name: "script")
        #expect(script.commands.map(\.words) == [["add", "One"], ["add", "Two#notacomment"], ["add", "a\nb", "--under", "1"], ["add", "last"]])
        #expect(script.commands.map(\.line) == [3, 4, 5, 8])
        #expect(script.commands.map(\.text) == ["add One   # after a command", "add Two#notacomment", "add \"a", "add 'last'"])
    }

    @Test(arguments: ["add \"open", "add 'open\nand on"])
    func anUnclosedQuoteNamesItsLine(text: String) throws {
        let error = #expect(throws: OutlineError.self) { try BatchScript(parsing: "add ok\n" + text, name: "changes.txt") }
        #expect(error?.location == "line 2")
        #expect(error?.file == "changes.txt")
    }

    @Test func aLongScriptSplitsInLinearTime() throws {
        let script = String(repeating: "add \"An item with a few words\" --under 1 # and a comment\n", count: 100_000)
        #expect(try BatchScript(parsing: script, name: "big").commands.count == 100_000)
    }
}
