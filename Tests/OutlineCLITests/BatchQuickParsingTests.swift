import OutlineTool
import Testing

@testable import OutlineCLI

/// A batch builds the commands of plain lines itself (`BatchQuickParsing`) instead of asking
/// swift-argument-parser: the commands must be the same, and every other line must still be
/// parsed (or refused, with the same message) by swift-argument-parser.
@Suite struct BatchQuickParsingTests {
    static let document = "doc.outline"

    /// Lines in the plain form, of every command a batch runs.
    static let plainLines = [
        "add Milk", "add \"Milk\" --under 1", "add Eggs --under 1 --at 1 --note 'A dozen.' --done --id", "add --under 2 Bread",
        "add --text-file title.txt", "add X --note-file note.txt --under '#105'", "add '' --under /", "add Milk --no-history",
        "add Milk --at +3", "add 'two words' --note ''",
        "edit 1.1 --text X", "edit 1 --note ''", "edit 1 --done --recursive", "edit --where 'text BEGINSWITH \"Old\"' --not-done",
        "edit 1 --text-file t.txt --note-file n.txt", "edit", "edit 2 --not-done --no-history", "edit --where TRUEPREDICATE --text x",
        "remove 1.2", "remove '#105' --no-history",
        "move 3 --under 1", "move 3 --under 1 --at 2", "move 1.2 --up", "move 1.2 --down", "move 2 --indent", "move 1.1 --outdent",
        "move --under / 4",
        "copy 1 --under /", "copy 1.2 --under 2 --at 1 --id", "copy --under 1 2 --no-history",
        "tag 1.2 dairy", "tag 1 errands 'this week'", "tag 1 a --no-history b",
        "untag 1.2 dairy", "untag 1 --all", "untag 1 a b",
        "collapse 1", "collapse 2 --all", "collapse --all", "expand 1", "expand 2 --all", "expand --all --no-history",
    ]

    /// Lines the quick path leaves to swift-argument-parser: other spellings, and lines it refuses.
    static let otherLines = [
        "add --under=1 Milk", "add Milk --under 1 --under 2", "add -- -Milk", "add -Milk", "add Milk --at x", "add Milk --at 0",
        "add Milk Bread", "add", "add Milk --text-file t.txt", "add Milk --note a --note-file b", "add -h", "add Milk --help",
        "add Milk --done --done", "add Milk --note", "add Milk --note -x", "add Milk --txt x",
        "edit 1 --done --not-done", "edit 1 --txt x", "edit 1 --read-only", "edit 1", "edit 1 2 --done", "edit 1 --where x --done",
        "edit --text x", "edit 1 --text a --text-file b",
        "move 1 --up --down", "move 1 --at 1 --up", "move 1", "move 1 --under 2 --up", "move --up", "move 1 --at 1", "move 1 --under 2 --at -1",
        "copy 1", "copy 1 --under 2 --at 0", "copy 1 2 --under 3", "copy --under 2",
        "tag 1", "tag", "tag -1 x", "untag 1", "untag 1 a --all", "untag",
        "collapse", "collapse 1 2", "expand --everything", "remove", "remove 1 2", "remove --no-history",
        "show 1", "undo",
    ]

    static func command(_ line: String) throws -> BatchScript.Command {
        try #require(try BatchScript(parsing: line, name: "test").commands.first)
    }

    /// Everything a command holds, with every property wrapper's state.
    static func contents(_ command: any EditingCommand) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }

    /// What `Batch.parse` makes of `line`: the command's contents, or the message a batch prints.
    static func outcome(_ line: String, parse: (BatchScript.Command, String) throws -> any EditingCommand) throws -> String {
        let command = try command(line)
        do {
            return contents(try parse(command, document))
        } catch {
            return "error: " + Batch.message(for: error, command)
        }
    }

    @Test(arguments: plainLines)
    func plainLinesAreBuiltAsSwiftArgumentParserBuildsThem(line: String) throws {
        let words = try Self.command(line).words
        let built = try #require(BatchQuickParsing.command(words, document: Self.document), "not built: \(line)")
        let parsed = try Batch.parseWithArgumentParser(try Self.command(line), document: Self.document)
        #expect(type(of: built) == type(of: parsed))
        #expect(Self.contents(built) == Self.contents(parsed))
        #expect(!Self.contents(built).contains("definition"), "a property was left unset: \(Self.contents(built))")
    }

    @Test(arguments: otherLines)
    func otherLinesAreLeftToSwiftArgumentParser(line: String) throws {
        #expect(BatchQuickParsing.command(try Self.command(line).words, document: Self.document) == nil)
    }

    @Test(arguments: plainLines + otherLines)
    func aBatchParsesEveryLineAsBeforeWithTheSameErrors(line: String) throws {
        let outcome = try Self.outcome(line, parse: Batch.parse)
        #expect(outcome == (try Self.outcome(line, parse: Batch.parseWithArgumentParser)))
    }

    /// swift-argument-parser would read a document name beginning with `-` as an option.
    @Test func aDocumentNameBeginningWithADashIsLeftToSwiftArgumentParser() throws {
        #expect(BatchQuickParsing.command(["add", "Milk"], document: "-doc.outline") == nil)
        #expect(BatchQuickParsing.command(["add", "Milk"], document: "doc.outline") != nil)
    }
}
