import Foundation
import OutlineEngine
import OutlineStorage
import Testing

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
            message: "line 4: attribute Item.count: the default value \"ten\" (defaultValueString) is not a valid "
                + "Integer 32. Write a whole number in range (-2147483648 to 2147483647), such as 0, or remove defaultValueString."),
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
        #expect(
            error.description == url.path + ": no such file or folder. Check the path; a model is a "
                + ".xcdatamodeld or .xcdatamodel folder or a contents file.")
    }
}

/// An in-memory model and the full error it must produce.
struct InlineModelErrorCase: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let files: [String: String]
    let path: String
    let code: StorageError.Code
    let message: String

    /// A model document whose root element holds `body` (entity lines start on line 3).
    static func contents(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(body)
        </model>
        """
    }

    init(_ label: String, body: String, code: StorageError.Code = .invalidModel, _ message: String) {
        self.init(label, files: ["M.xcdatamodel/contents": Self.contents(body)], path: "M.xcdatamodel", code: code, message)
    }

    init(_ label: String, files: [String: String], path: String, code: StorageError.Code = .invalidModel, _ message: String) {
        self.testDescription = label
        self.files = files
        self.path = path
        self.code = code
        self.message = message
    }
}

extension ModelReaderErrorTests {
    static let note = #"<entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>"#

    static let inlineCases: [InlineModelErrorCase] = [
        InlineModelErrorCase(
            "relationship without destination",
            body: #"<entity name="A"><relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify"/></entity>"#,
            "M.xcdatamodel/contents: line 3: relationship A.b: no destinationEntity. Choose the destination entity "
                + "of the relationship in Xcode's model editor."),
        InlineModelErrorCase(
            "unknown delete rule",
            body: #"<entity name="A"><relationship name="b" deletionRule="Explode" destinationEntity="A"/></entity>"#,
            "M.xcdatamodel/contents: line 3: relationship A.b: unknown deletionRule \"Explode\". Use Nullify, "
                + "Cascade, Deny or No Action."),
        InlineModelErrorCase(
            "negative count",
            body: #"<entity name="A"><relationship name="b" toMany="YES" minCount="-1" deletionRule="Nullify" destinationEntity="A"/></entity>"#,
            "M.xcdatamodel/contents: line 3: relationship A.b: minCount \"-1\" is not a whole number of 0 or more. "
                + "Write a count such as minCount=\"1\", or remove minCount."),
        InlineModelErrorCase(
            "boolean default that is not YES or NO",
            body: #"<entity name="A"><attribute name="on" attributeType="Boolean" defaultValueString="maybe"/></entity>"#,
            "M.xcdatamodel/contents: line 3: attribute A.on: the default value \"maybe\" (defaultValueString) is "
                + "not a valid Boolean. Write YES or NO, or remove defaultValueString."),
        InlineModelErrorCase(
            "integer default out of range",
            body: #"<entity name="A"><attribute name="n" attributeType="Integer 16" defaultValueString="70000"/></entity>"#,
            "M.xcdatamodel/contents: line 3: attribute A.n: the default value \"70000\" (defaultValueString) is "
                + "not a valid Integer 16. Write a whole number in range (-32768 to 32767), such as 0, or remove defaultValueString."),
        InlineModelErrorCase(
            "date bound that is not a number",
            body: #"<entity name="A"><attribute name="d" attributeType="Date" minDateTimeInterval="yesterday"/></entity>"#,
            "M.xcdatamodel/contents: line 3: attribute A.d: the minimum \"yesterday\" (minDateTimeInterval) is "
                + "not a valid Date. Write seconds since 2001-01-01 UTC, such as 0, or remove minDateTimeInterval."),
        InlineModelErrorCase(
            "duplicate entity",
            body: "\(note)\n\(note)",
            "M.xcdatamodel/contents: line 4: entity Note: two entities are called \"Note\". Correct the model in "
                + "Xcode's model editor (or in the file) and read it again."),
        InlineModelErrorCase(
            "unknown parent entity",
            body: #"<entity name="A" parentEntity="Base"/>"#,
            "M.xcdatamodel/contents: line 3: entity A: the parent entity \"Base\" does not exist. Correct the model "
                + "in Xcode's model editor (or in the file) and read it again."),
        InlineModelErrorCase(
            "several problems at once",
            body: """
                <entity name="A">
                    <relationship name="b" deletionRule="Nullify" destinationEntity="Nowhere"/>
                    <relationship name="c" deletionRule="Nullify" destinationEntity="Elsewhere"/>
                </entity>
                """,
            "M.xcdatamodel/contents: line 4: relationship A.b: the destination entity \"Nowhere\" does not exist. "
                + "Correct the model in Xcode's model editor (or in the file) and read it again.\n"
                + "  - line 4: relationship A.b: the destination entity \"Nowhere\" does not exist\n"
                + "  - line 5: relationship A.c: the destination entity \"Elsewhere\" does not exist"),
        InlineModelErrorCase(
            "wrong root element",
            files: ["M.xcdatamodel/contents": "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>"],
            path: "M.xcdatamodel", code: .malformedXML,
            "M.xcdatamodel/contents: line 2: the root element is <plist>, not <model>. This is not the contents "
                + "file of an Xcode data model; check the path."),
        InlineModelErrorCase(
            "unclosed element",
            files: ["contents": "<model>\n<entity name=\"A\">\n</model>"], path: "contents", code: .malformedXML,
            "contents: line 3: not well-formed XML (Opening and ending tag mismatch: entity line 2 and model). The "
                + "file is not a well-formed Xcode data model; restore it from a backup or re-save it in Xcode."),
        InlineModelErrorCase(
            "empty contents file",
            files: ["contents": ""], path: "contents", code: .malformedXML,
            "contents: the file is empty. The file is not a well-formed Xcode data model; restore it from a "
                + "backup or re-save it in Xcode."),
        InlineModelErrorCase(
            "current version missing from the bundle",
            files: [
                "N.xcdatamodeld/N.xcdatamodel/contents": InlineModelErrorCase.contents(note),
                "N.xcdatamodeld/.xccurrentversion": """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>N 2.xcdatamodel</string></dict></plist>
                """,
            ],
            path: "N.xcdatamodeld",
            "N.xcdatamodeld/.xccurrentversion: the current version \"N 2.xcdatamodel\" is not in the bundle "
                + "(versions: N.xcdatamodel). Choose an existing version as current in Xcode's File inspector."),
        InlineModelErrorCase(
            "current version file that is not a plist",
            files: [
                "N.xcdatamodeld/N.xcdatamodel/contents": InlineModelErrorCase.contents(note),
                "N.xcdatamodeld/.xccurrentversion": "N.xcdatamodel",
            ],
            path: "N.xcdatamodeld",
            "N.xcdatamodeld/.xccurrentversion: not a property list dictionary. Choose the current version again in "
                + "Xcode's File inspector, or delete the file."),
        InlineModelErrorCase(
            "bundle without versions",
            files: ["N.xcdatamodeld/README": "notes"], path: "N.xcdatamodeld",
            "N.xcdatamodeld: the bundle holds no model versions (no *.xcdatamodel folder). Add a version in Xcode "
                + "(Editor > Add Model Version), or check the path."),
        InlineModelErrorCase(
            "version folder without contents",
            files: ["N.xcdatamodeld/N.xcdatamodel/notes.txt": "notes", "N.xcdatamodeld/N.xcdatamodel/x": ""],
            path: "N.xcdatamodeld/N.xcdatamodel",
            "N.xcdatamodeld/N.xcdatamodel: the model folder has no contents file. Restore the folder's contents "
                + "file, or re-save the model in Xcode."),
        InlineModelErrorCase(
            "path not among the files",
            files: ["A.xcdatamodel/contents": InlineModelErrorCase.contents(note)], path: "B.xcdatamodel",
            code: .unreadable,
            "B.xcdatamodel: no such file or folder. Check the path; a model is a .xcdatamodeld or .xcdatamodel "
                + "folder or a contents file."),
    ]

    @Test(arguments: inlineCases)
    func brokenInMemoryModelReportsTheFullError(_ errorCase: InlineModelErrorCase) throws {
        let error = try #require(throws: StorageError.self) {
            try ModelReader.read(path: errorCase.path, in: errorCase.files)
        }
        #expect(error.code == errorCase.code)
        #expect(error.description == errorCase.message)
    }

    @Test func bareXcode3ElementsFileIsRecognized() throws {
        let data = try Data(contentsOf: Fixtures.model("Xcode3Model.xcdatamodel/elements"))
        let error = try #require(throws: StorageError.self) {
            try ModelReader.read(path: "elements", in: ["elements": data])
        }
        #expect(
            error.description == "elements: Xcode 3 model (binary \"elements\" and \"layout\" files instead of an "
                + "XML \"contents\" file). Re-save it in Xcode 4 or later, which converts it.")
    }
}

extension ModelReaderErrorTests {
    @Test func entityExpansionBombIsRefused() throws {
        var lines = [#"<?xml version="1.0"?>"#, "<!DOCTYPE model [", #"<!ENTITY e0 "boom">"#]
        for level in 1 ... 9 {
            lines.append("<!ENTITY e\(level) \"" + String(repeating: "&e\(level - 1);", count: 10) + "\">")
        }
        lines += ["]>", #"<model><entity name="A" representedClassName="&e9;"/></model>"#]
        let error = try #require(throws: StorageError.self) {
            try ModelReader.read(path: "contents", in: ["contents": lines.joined(separator: "\n")])
        }
        // Refused at the first declaration, before anything can expand.
        #expect(error.code == .unsafeXML)
        #expect(
            error.description == "contents: line 3: the DOCTYPE declares the entity \"e0\"; Xcode models declare none, "
                + "and this reader never expands entities or loads DTDs. The file was not written by Xcode; do not open it "
                + "unless you know where it comes from.")
    }
}
