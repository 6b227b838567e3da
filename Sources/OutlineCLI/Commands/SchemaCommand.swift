import ArgumentParser

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Describe an Xcode data model and compare its versions.",
        discussion: """
            MODEL is a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file.

            Examples:
              outline schema show Schemas/Outline.xcdatamodeld
              outline schema diff Schemas/Outline.xcdatamodeld --from Outline --to "Outline 3"
            """,
        subcommands: [SchemaShow.self, SchemaDiff.self])
}
