import Foundation
import Testing

/// Texts that begin with a dash are texts, on the command line and in batches: `"- wash
/// dishes"` used to be read as short flags holding `-h`, printed the help and added nothing
/// with exit status 0.
@Suite struct DashTextTests {
    static func document() throws -> CLISandbox {
        let box = try CLISandbox()
        #expect(try box.run("create", "doc.outline").status == 0)
        #expect(try box.run("add", "doc.outline", "Chores").status == 0)
        return box
    }

    @Test func aTextBeginningWithADashIsAdded() throws {
        let box = try Self.document()
        let dash = try box.run("add", "doc.outline", "- wash dishes", "--under", "1")
        #expect(dash.status == 0 && dash.stdout == "1.1\n", "\(dash)")
        let number = try box.run("add", "doc.outline", "--under", "1", "-5 °C outside", "--note", "-- cold --")
        #expect(number.status == 0 && number.stdout == "1.2\n", "\(number)")
        let edited = try box.run("edit", "doc.outline", "1", "--text", "- Chores -")
        #expect(edited.status == 0, "\(edited)")
        #expect(try box.run("show", "doc.outline").stdout == "1 - Chores -\n  1.1 - wash dishes\n  1.2 -5 °C outside\n      -- cold --\n")
        let json = try box.run("show", "doc.outline", "--under", "1.2", "--json").stdout
        #expect(json.contains("\"note\": \"-- cold --\""), "\(json)")
    }

    @Test func optionsAroundADashTextKeepTheirMeaning() throws {
        let box = try Self.document()
        #expect(try box.run("add", "doc.outline", "B").status == 0)
        let added = try box.run("add", "doc.outline", "- first", "--under", "1", "--done", "--id")
        #expect(added.status == 0 && added.stdout.hasPrefix("#"), "\(added)")
        #expect(try box.run("show", "doc.outline", "--under", "1").stdout == "1 Chores\n  1.1 [x] - first\n")
        // A value that begins with a dash goes to its option even when it is a number.
        let at = try box.run("move", "doc.outline", "2", "--under", "1", "--at", "-1")
        #expect(at.status == 64 && at.stderr.hasPrefix("Error: --at must be 1 or more (got -1)."), "\(at)")
    }

    @Test func wordsThatLookLikeOptionsAreStillOptions() throws {
        let box = try Self.document()
        let unknown = try box.run("add", "doc.outline", "-x")
        #expect(unknown.status == 64 && unknown.stderr.hasPrefix("Error: Unknown option '-x'."), "\(unknown)")
        let help = try box.run("add", "-h")
        #expect(help.status == 0 && help.stdout.contains("USAGE: outline add"), "\(help)")
        #expect(try box.run("show", "doc.outline").stdout == "1 Chores\n")
    }

    @Test func aBatchLineTakesDashTextsToo() throws {
        let box = try Self.document()
        let script = "add \"- wash dishes\" --under 1\nadd '-5 °C' --under 1 --at 1\nedit 1 --text \"- Chores\"\n"
        let result = try box.run(["batch", "doc.outline"], standardInput: Data(script.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "1.1\n1.1\n", "\(result)")
        #expect(try box.run("show", "doc.outline").stdout == "1 - Chores\n  1.1 -5 °C\n  1.2 - wash dishes\n")
    }
}
