import ArgumentParser
import OutlineStorage

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
