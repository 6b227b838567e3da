import Foundation
import OutlineEngine
import OutlineStorage
import Testing

/// Models as Xcode writes them: defaults in every form Xcode and its model compiler accept,
/// odd forms read with a warning, and bundles that name no current version.
@Suite struct ModelFormTests {
    @Test func defaultsReadInEveryFormXcodeWrites() throws {
        let bundle = try ModelReader.read(at: Fixtures.model("DefaultForms.xcdatamodel"))
        #expect(bundle.warnings.isEmpty)
        let settings = try #require(try bundle.current.info(named: "Settings"))
        func value(_ name: String) -> Value? { settings.attributes.first { $0.name == name }?.defaultValue }
        #expect(value("boolYes") == .boolean(true) && value("boolNo") == .boolean(false))
        #expect(value("boolOne") == .boolean(true) && value("boolZero") == .boolean(false))
        #expect(value("boolOnePointZero") == .boolean(true) && value("boolZeroPointZero") == .boolean(false))
        #expect(value("boolTrue") == .boolean(true) && value("boolFalse") == .boolean(false))
        #expect(value("count16") == .integer(0) && value("count32") == .integer(-3) && value("count64") == .integer(1000))
        #expect(value("countEmpty") == nil, "an empty default of a number is no default")
        #expect(value("created") == .date(Date(timeIntervalSinceReferenceDate: -86400.5)))
        #expect(value("epoch") == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(value("price") == .decimal(0) && value("ratio") == .double(0) && value("scale") == .double(2.5))
        #expect(value("name") == .string(""), "an empty default of a string is the empty string")
        #expect(value("greeting") == .string(" Hello, world "), "strings keep their spaces")
    }

    @Test func oddButAcceptedFormsAreReadWithAWarningEach() throws {
        let bundle = try ModelReader.read(at: Fixtures.model("OddDefaultValues.xcdatamodel"))
        let item = try #require(try bundle.current.info(named: "Item"))
        #expect(item.attributes.map(\.defaultValue) == [.integer(1), .boolean(true), nil])
        #expect(item.attributes[2].minValue == .integer(0))
        let file = Fixtures.model("OddDefaultValues.xcdatamodel/contents").path
        #expect(
            bundle.warnings.map(\.description) == [
                "\(file): line 4: attribute Item.count: the default value (defaultValueString) \"1.5\" is not a whole number; read as 1. "
                    + "Write 1 to say the same without this warning.",
                "\(file): line 5: attribute Item.flag: the default value (defaultValueString) \"2\" is not YES or NO; read as YES. "
                    + "Write YES to say the same without this warning.",
                "\(file): line 6: attribute Item.limit: the minimum (minValueString) \"-0.5\" is not a whole number; read as 0. "
                    + "Write 0 to say the same without this warning.",
            ])
    }

    @Test(arguments: [("Integer 16", "abc"), ("Integer 16", "70000"), ("Boolean", "maybe"), ("Double", "nan"), ("Date", "yesterday")])
    func formsTheModelCompilerRefusesAreErrors(type: String, text: String) throws {
        let key = type == "Date" ? "defaultDateTimeInterval" : "defaultValueString"
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model>
                <entity name="A"><attribute name="a" optional="YES" attributeType="\(type)" \(key)="\(text)"/></entity>
            </model>
            """
        let error = #expect(throws: StorageError.self) { try ModelReader.read(path: "contents", in: ["contents": contents]) }
        #expect(error?.code == .invalidModel)
        #expect(error?.message == "attribute A.a: the default value \"\(text)\" (\(key)) is not a valid \(type)")
    }

    @Test(arguments: ["Shop.xcdatamodeld", "SeveralVersionsNoCurrent.xcdatamodeld"])
    func aBundleThatNamesNoCurrentVersionReads(fixture: String) throws {
        let bundle = try ModelReader.read(at: Fixtures.model(fixture))
        #expect(bundle.currentVersionName == nil)
        #expect(bundle.versions.count > 1)
        let error = #expect(throws: StorageError.self) { try bundle.current }
        #expect(error?.code == .noCurrentVersion)
        #expect(
            error?.message
                == "the model \"\(bundle.name)\" has \(bundle.versions.count) versions (\(bundle.versionList)) and names no current version")
    }

    @Test func versionsOfABundleWithoutCurrentVersionAreInNumericOrderAndOneCanBeChosen() throws {
        let bundle = try ModelReader.read(at: Fixtures.model("Shop.xcdatamodeld"))
        #expect(bundle.versions.map(\.name) == ["Shop", "Shop 2", "Shop 10"])
        let chosen = try bundle.choosingCurrentVersion("Shop 2")
        #expect(try chosen.current.versionIdentifier == "2")
        let error = #expect(throws: StorageError.self) { try bundle.choosingCurrentVersion("Shop 3") }
        #expect(
            error?.description == "the model \"Shop\" has no version called \"Shop 3\" (versions: Shop, Shop 2, Shop 10). "
                + "Choose one of the versions listed, by its name without .xcdatamodel.")
    }

    @Test func anEmptyCurrentVersionFileNamesNone() throws {
        let files = [
            "M.xcdatamodeld/.xccurrentversion": "",
            "M.xcdatamodeld/M.xcdatamodel/contents": #"<?xml version="1.0"?><model><entity name="A"/></model>"#,
            "M.xcdatamodeld/M 2.xcdatamodel/contents": #"<?xml version="1.0"?><model><entity name="A"/></model>"#,
        ]
        let bundle = try ModelReader.read(path: "M.xcdatamodeld", in: files)
        #expect(bundle.currentVersionName == nil && bundle.versions.count == 2)
    }
}
