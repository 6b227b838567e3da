import ArgumentParser
import OutlineStorage
import OutlineTool

/// `--format binary|xml` of `outline create`.
enum StoreFormatArgument: String, ExpressibleByArgument, CaseIterable {
    case binary, xml

    var documentFormat: DocumentFormat {
        switch self {
        case .binary: .binary
        case .xml: .xml
        }
    }
}
