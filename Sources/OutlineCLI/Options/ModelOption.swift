import ArgumentParser
import OutlineKit
import OutlineTool
import OutlineStorage

/// `--model MODEL`: read documents of any Xcode model, not only outlines.
struct ModelOption: ParsableArguments {
    @Option(help: ArgumentHelp("The Xcode model the document was written with: a .xcdatamodeld bundle, a .xcdatamodel folder or a contents file (default: the outline model).",
                               valueName: "model"),
            completion: .file())
    var model: String?

    /// The model's versions: the one named by `--model`, or the embedded outline model.
    func bundle() throws -> ModelBundle {
        try ModelSelection.bundle(at: model)
    }
}
