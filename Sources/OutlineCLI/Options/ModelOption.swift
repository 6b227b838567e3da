import ArgumentParser
import OutlineKit
import OutlineStorage
import OutlineTool

/// `--model MODEL` and `--model-version NAME`: read documents of any Xcode model, not only outlines.
struct ModelOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The Xcode model the document was written with: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file (default: the outline model; a document of another app without its model is read with one derived from the file).",
            valueName: "model"),
        completion: .file())
    var model: String?

    // Not --version: that is the tool's own flag (`outline info --version` prints the tool's version).
    @Option(
        name: .customLong("model-version"),
        help: ArgumentHelp("The model version to use as the current one (needed when a bundle names none).", valueName: "name"))
    var currentVersion: String?

    /// The model's versions: the one named by `--model`, or the embedded outline model, with
    /// `--model-version` as its current version. Warnings about the model are printed.
    func bundle() throws -> ModelBundle {
        ModelSelection.printingWarnings(try ModelSelection.bundle(at: model, currentVersion: currentVersion))
    }
}

extension ModelSelection {
    /// `bundle`, after printing its warnings (odd but accepted forms in its files).
    static func printingWarnings(_ bundle: ModelBundle) -> ModelBundle {
        for warning in bundle.warnings { Console.warning(warning.description) }
        return bundle
    }
}
