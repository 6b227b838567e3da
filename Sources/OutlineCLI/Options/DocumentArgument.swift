import ArgumentParser

/// The document a subcommand works on.
struct DocumentArgument: ParsableArguments {
    @Argument(help: "The outline document (.outline, binary or XML).", completion: .file(extensions: ["outline", "xml"]))
    var file: String
}
