import ArgumentParser

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Describe an Xcode data model and compare its versions.",
        discussion: """
            MODEL is a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.

            Examples:
              outline schema show Outline.xcdatamodeld
              outline schema diff Outline.xcdatamodeld --from Outline --to "Outline 3"
            """,
        subcommands: [SchemaShow.self, SchemaDiff.self])
}
