import Foundation
import Testing
import OutlineEngine
import OutlineStorage

/// A broken model fixture and the full error it must produce.
struct ModelErrorCase: Sendable, CustomTestStringConvertible {
    /// The fixture under `Fixtures/Models/` that is read.
    let fixture: String
    /// The file the error names, relative to `Fixtures/Models/`.
    let file: String
    let code: StorageError.Code
    /// The error's description after `FILE: `.
    let message: String

    var testDescription: String { fixture }
}

@Suite struct ModelReaderErrorTests {
    static let fix = "Correct the model in Xcode's model editor (or in the file) and read it again."

    static let cases: [ModelErrorCase] = [
        ModelErrorCase(
            fixture: "UnknownDestination.xcdatamodel", file: "UnknownDestination.xcdatamodel/contents",
            code: .invalidModel,
            message: "line 5: relationship Item.owner: the destination entity \"Person\" does not exist. \(fix)"),
        ModelErrorCase(
            fixture: "InverseNotPointingBack.xcdatamodel", file: "InverseNotPointingBack.xcdatamodel/contents",
            code: .invalidModel,
            message: "line 5: relationship Folder.items: the inverse \"Item.folder\" does not point back "
                + "(it names \"archive\"). \(fix)"),
        ModelErrorCase(
            fixture: "DuplicateProperty.xcdatamodel", file: "DuplicateProperty.xcdatamodel/contents",
            code: .invalidModel,
            message: "line 5: attribute Item.title: two properties are called \"title\". \(fix)"),
        ModelErrorCase(
            fixture: "UndefinedStoredAttribute.xcdatamodel", file: "UndefinedStoredAttribute.xcdatamodel/contents",
            code: .invalidModel,
            message: "line 4: attribute Item.cache: the attribute has type Undefined but is not transient; "
                + "only transient attributes may be Undefined. \(fix)"),
        ModelErrorCase(
            fixture: "UnknownAttributeType.xcdatamodel", file: "UnknownAttributeType.xcdatamodel/contents",
            code: .invalidModel,
            message: "line 4: attribute Item.size: unknown attributeType \"Integer 128\". Use one of Undefined, "
                + "Integer 16, Integer 32, Integer 64, Decimal, Double, Float, String, Boolean, Date, Binary, "
                + "UUID, URI, Transformable, Object ID."),
        ModelErrorCase(
            fixture: "BadDefaultValue.xcdatamodel", file: "BadDefaultValue.xcdatamodel/contents",
            code: .invalidModel,
            message: "line 4: attribute Item.count: the default value \"1.5\" (defaultValueString) is not a valid "
                + "Integer 32. Write a whole number in range, such as 0, or remove defaultValueString."),
        ModelErrorCase(
            fixture: "Xcode3Model.xcdatamodel", file: "Xcode3Model.xcdatamodel",
            code: .invalidModel,
            message: "Xcode 3 model (binary \"elements\" and \"layout\" files instead of an XML \"contents\" file). "
                + "Re-save it in Xcode 4 or later, which converts it."),
        ModelErrorCase(
            fixture: "NotXML.xcdatamodel", file: "NotXML.xcdatamodel/contents",
            code: .malformedXML,
            message: "line 1: not well-formed XML (Start tag expected, '<' not found). The file is not a "
                + "well-formed Xcode data model; restore it from a backup or re-save it in Xcode."),
        ModelErrorCase(
            fixture: "SeveralVersionsNoCurrent.xcdatamodeld", file: "SeveralVersionsNoCurrent.xcdatamodeld",
            code: .invalidModel,
            message: "the bundle has 2 versions (Notes.xcdatamodel, Notes 2.xcdatamodel) and names no current "
                + "version. Name one in .xccurrentversion (key _XCCurrentVersionName), or choose it in Xcode's "
                + "File inspector."),
    ]

    @Test(arguments: cases)
    func brokenModelFixtureReportsFileLineElementAndRemedy(_ errorCase: ModelErrorCase) {
        let url = Fixtures.model(errorCase.fixture)
        let expected = Fixtures.model(errorCase.file).path + ": " + errorCase.message
        #expect {
            _ = try ModelReader.read(at: url)
        } throws: { error in
            guard let error = error as? StorageError else { return false }
            #expect(error.code == errorCase.code)
            #expect(error.description == expected)
            return true
        }
    }

    @Test func schemaErrorKeepsTheEngineErrorAsUnderlying() throws {
        let error = try #require(throws: StorageError.self) {
            try ModelReader.read(at: Fixtures.model("UnknownDestination.xcdatamodel"))
        }
        #expect(error.underlying?.code == .invalidSchema)
        #expect(error.underlying?.location == "Item.owner")
        #expect(error.location == "line 5")
    }

    @Test func missingPathIsUnreadable() throws {
        let url = Fixtures.model("NoSuchModel.xcdatamodeld")
        let error = try #require(throws: StorageError.self) { try ModelReader.read(at: url) }
        #expect(error.code == .unreadable)
        #expect(error.description == url.path + ": no such file or folder. Check the path; a model is a "
                + ".xcdatamodeld or .xcdatamodel folder or a contents file.")
    }
}
