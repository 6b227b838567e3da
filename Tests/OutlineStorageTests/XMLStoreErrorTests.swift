import Foundation
import OutlineEngine
import Testing

@testable import OutlineStorage

/// Every error the XML store reader reports, each with a fixture and its full message.
@Suite struct XMLStoreErrorTests {
    typealias Model = XMLStoreWritingTests.Model

    static let malformed: [(String, Model, StorageError.Code, String)] = [
        (
            "AbstractEntityObject.xml", .allTypes, .corrupt,
            "Malformed/AbstractEntityObject.xml: line 11: object z102 is of entity Base, which is abstract. Abstract entities have no objects of their own; the file does not match the model."
        ),
        (
            "AttributeIsRelationship.xml", .nestedList, .incompatibleModel,
            "Malformed/AttributeIsRelationship.xml: line 12: z102 stores Item.parent as an attribute, but the model has a relationship of that name. Open the store with the model it was written with."
        ),
        (
            "BadBase64.xml", .allTypes, .corrupt,
            "Malformed/BadBase64.xml: line 12: z102 Record.blob holds \"AAEC$$\\n\", which is not base64 data. Fix the value in the file or restore the file from a backup if there is one."
        ),
        (
            "BadIdref.xml", .nestedList, .corrupt,
            "Malformed/BadIdref.xml: line 14: z102 Item.children refers to \"#104\", which is not an object id. Core Data writes ids such as z102; the file is damaged."
        ),
        (
            "BadIntegerValue.xml", .nestedList, .corrupt,
            "Malformed/BadIntegerValue.xml: line 12: z102 Item.order holds \"first\", which is not a valid Integer 64 value. Fix the value in the file or restore the file from a backup if there is one."
        ),
        (
            "BadNextObjectID.xml", .nestedList, .corrupt,
            "Malformed/BadNextObjectID.xml: line 8: <nextObjectID> holds \"-5\", which is not a number. The store header is damaged; restore the file from a backup if there is one."
        ),
        (
            "BadObjectID.xml", .nestedList, .corrupt,
            "Malformed/BadObjectID.xml: line 11: the object id \"x102\" is not of the form zN. Core Data writes ids such as z102; the file is damaged."
        ),
        (
            "BadUUID.xml", .nestedList, .corrupt,
            "Malformed/BadUUID.xml: line 7: <UUID> holds \"not-a-uuid\", which is not a UUID. The store header is damaged; restore the file from a backup if there is one."
        ),
        (
            "DanglingReference.xml", .nestedList, .corrupt,
            "Malformed/DanglingReference.xml: line 14: z102 Item.children refers to z999, which is not in the file. The file is damaged; restore it from a backup if there is one."
        ),
        (
            "DerivedModelInconsistent.xml", .derived, .invalidModel,
            "Malformed/DerivedModelInconsistent.xml: the model derived from the file is inconsistent (EMPLOYEE.age: two properties are called \"age\". Fix the model and load it again.). Open the store with the model it was written with."
        ),
        (
            "DuplicateID.xml", .nestedList, .corrupt,
            "Malformed/DuplicateID.xml: line 17: two objects have the id z102. Object ids are unique in a store; the file is damaged."
        ),
        (
            "EmbeddedModelBroken.xml", .derived, .invalidModel,
            "Malformed/EmbeddedModelBroken.xml (embedded model): line 1: relationship Item.owner: the destination entity \"Nobody\" does not exist. Correct the model in Xcode's model editor (or in the file) and read it again."
        ),
        (
            "Empty.xml", .nestedList, .malformedXML,
            "Malformed/Empty.xml: the file is empty. An XML store starts with <?xml ...?> and holds a <database> element; restore the file from a backup if there is one."
        ),
        (
            "InversesDisagree.xml", .nestedList, .corrupt,
            "Malformed/InversesDisagree.xml: Item z103: relationship \"parent\" disagrees with its inverse \"children\": it names nothing, but z102 lists it. The two sides of a relationship must mirror each other; the file is damaged or was edited by hand. Restore it from a backup if there is one."
        ),
        (
            "MetadataBadData.xml", .nestedList, .corrupt,
            "Malformed/MetadataBadData.xml: line 15: the metadata value \"\\n\\t\\tnot*base64\\n\\t\\t\" is not base64 data. The metadata property list is damaged; restore the file from a backup if there is one."
        ),
        (
            "MetadataBadDate.xml", .nestedList, .corrupt,
            "Malformed/MetadataBadDate.xml: line 13: the metadata value \"yesterday\" is not a date (YYYY-MM-DDTHH:MM:SSZ). The metadata property list is damaged; restore the file from a backup if there is one."
        ),
        (
            "MetadataBadInteger.xml", .nestedList, .corrupt,
            "Malformed/MetadataBadInteger.xml: line 13: the metadata value \"12x\" is not an integer. The metadata property list is damaged; restore the file from a backup if there is one."
        ),
        (
            "MetadataHashesNotDictionary.xml", .nestedList, .corrupt,
            "Malformed/MetadataHashesNotDictionary.xml: line 17: the metadata value of NSStoreModelVersionHashes is not a dictionary of data. The metadata property list is damaged; restore the file from a backup if there is one."
        ),
        (
            "MetadataKeyOutsideDict.xml", .nestedList, .malformedXML,
            "Malformed/MetadataKeyOutsideDict.xml: line 11: the metadata has a <key> outside a <dict> or two keys in a row. The metadata property list is damaged; restore the file from a backup if there is one."
        ),
        (
            "MetadataKeyWithoutValue.xml", .nestedList, .malformedXML,
            "Malformed/MetadataKeyWithoutValue.xml: line 13: the metadata key \"a\" has no value. The metadata property list is damaged; restore the file from a backup if there is one."
        ),
        (
            "MetadataTwoValues.xml", .nestedList, .malformedXML,
            "Malformed/MetadataTwoValues.xml: line 12: the metadata <plist> holds more than one value. The metadata property list is damaged; restore the file from a backup if there is one."
        ),
        (
            "MetadataUnknownElement.xml", .nestedList, .malformedXML,
            "Malformed/MetadataUnknownElement.xml: line 11: unexpected element <set> in the metadata property list. The metadata property list is damaged; restore the file from a backup if there is one."
        ),
        (
            "MetadataValueWithoutKey.xml", .nestedList, .malformedXML,
            "Malformed/MetadataValueWithoutKey.xml: line 12: the metadata has a value without a <key> in a <dict>. The metadata property list is damaged; restore the file from a backup if there is one."
        ),
        (
            "MismatchedTags.xml", .nestedList, .malformedXML,
            "Malformed/MismatchedTags.xml: line 12: the XML is not well-formed (Opening and ending tag mismatch: attribute line 12 and attr). The file is damaged; restore it from a backup if there is one."
        ),
        (
            "MissingUUID.xml", .nestedList, .corrupt,
            "Malformed/MissingUUID.xml: line 9: <databaseInfo> has no <UUID>. The store header is damaged; restore the file from a backup if there is one."
        ),
        (
            "NoDatabaseInfo.xml", .nestedList, .malformedXML,
            "Malformed/NoDatabaseInfo.xml: the store has no <databaseInfo>. A Core Data XML store starts with <database><databaseInfo>; the file is not a store or is damaged."
        ),
        (
            "NoElement.xml", .nestedList, .malformedXML,
            "Malformed/NoElement.xml: line 3: the file holds no XML element. An XML store starts with <?xml ...?> and holds a <database> element; restore the file from a backup if there is one."
        ),
        (
            "ObjectBeforeInfo.xml", .nestedList, .malformedXML,
            "Malformed/ObjectBeforeInfo.xml: line 5: an <object> comes before <databaseInfo>. A Core Data XML store starts with <databaseInfo>; the file is damaged."
        ),
        (
            "ObjectWithoutID.xml", .nestedList, .malformedXML,
            "Malformed/ObjectWithoutID.xml: line 11: <object> has no id attribute. Core Data writes it on every <object>; the file is damaged."
        ),
        (
            "PropertyKindsDiffer.xml", .derived, .corrupt,
            "Malformed/PropertyKindsDiffer.xml: line 18: property \"parent\" of ITEM is stored with different kinds or types. The file is damaged; open it with its model to find out more."
        ),
        (
            "RelationshipIsAttribute.xml", .nestedList, .incompatibleModel,
            "Malformed/RelationshipIsAttribute.xml: line 12: z102 stores Item.title as a relationship, but the model has an attribute of that name. Open the store with the model it was written with."
        ),
        (
            "RelationshipWithoutDestination.xml", .derived, .corrupt,
            "Malformed/RelationshipWithoutDestination.xml: line 12: relationship \"parent\" of z102 has no destination. Without its model a store is read by its destination= attributes; open it with its model instead."
        ),
        (
            "ToOneWithTwoTargets.xml", .nestedList, .corrupt,
            "Malformed/ToOneWithTwoTargets.xml: line 15: z102 Item.parent is to-one but refers to 2 objects. The file does not match the model; open it with the model it was written with."
        ),
        (
            "Truncated.xml", .nestedList, .truncated,
            "Malformed/Truncated.xml: line 45: the file ends before its elements are closed (3 still open). The file is truncated; restore it from a backup if there is one."
        ),
        (
            "UnexpectedElement.xml", .nestedList, .malformedXML,
            "Malformed/UnexpectedElement.xml: line 12: unexpected element <value> in <object>. This is not the layout of a Core Data XML store; the file is damaged or of another kind."
        ),
        (
            "UnknownAttributeTypeNoModel.xml", .derived, .corrupt,
            "Malformed/UnknownAttributeTypeNoModel.xml: line 12: attribute \"order\" of z102 has the unknown type \"int128\". Without its model a store is read by its type= attributes; open it with its model instead."
        ),
        (
            "UnknownEntity.xml", .nestedList, .incompatibleModel,
            "Malformed/UnknownEntity.xml: line 11: object z102 is of entity \"FOLDER\", which the model does not have. Open the store with the model it was written with."
        ),
        (
            "UnknownProperty.xml", .nestedList, .incompatibleModel,
            "Malformed/UnknownProperty.xml: line 12: z102 has a property \"color\", which entity Item of the model does not have. Open the store with the model it was written with."
        ),
        (
            "UnsupportedVersion.xml", .nestedList, .unsupportedVersion,
            "Malformed/UnsupportedVersion.xml: line 6: the store version is 134481921, not 134481920. Core Data has only ever written version 134481920; the file is not a Core Data store or was edited."
        ),
        (
            "VersionNotNumber.xml", .nestedList, .corrupt,
            "Malformed/VersionNotNumber.xml: line 6: <version> holds \"1.34\", which is not a number. The store header is damaged; restore the file from a backup if there is one."
        ),
        (
            "WrongDestinationEntity.xml", .allTypes, .corrupt,
            "Malformed/WrongDestinationEntity.xml: Person z102: relationship \"records\" points at an object that is not entity Record or one of its subentities. The data is damaged. Restore it from a backup if there is one."
        ),
        (
            "WrongHashes.xml", .nestedList, .incompatibleModel,
            "Malformed/WrongHashes.xml: line 22: the store was written with another version of the model (Folder is only in the store; Item differs). Open it with the model version it was written with; migrating it to this one is a separate step."
        ),
        (
            "WrongRoot.xml", .nestedList, .unknownFormat,
            "Malformed/WrongRoot.xml: line 2: the root element is <plist>, not <database>. This is not a Core Data XML store; check that this is the file you meant."
        ),
    ]

    @Test(arguments: malformed)
    func reportsMalformedStores(_ fixture: String, _ model: Model, _ code: StorageError.Code, _ message: String) throws {
        let error = #expect(throws: StorageError.self) {
            try XMLFixture.read("Malformed/\(fixture)", schema: try model.schema())
        }
        #expect(error?.code == code)
        #expect(error?.description == message)
    }

    static let hostile: [(String, StorageError.Code, String)] = [
        (
            "HostileXXE.xml", .unsafeXML,
            "HostileXXE.xml: line 3: the DOCTYPE declares the entity \"xxe\"; Core Data stores declare nothing, and this reader never expands entities or loads DTDs. The file was not written by Core Data; do not open it unless you know where it comes from."
        ),
        (
            "HostileBillionLaughs.xml", .unsafeXML,
            "HostileBillionLaughs.xml: line 3: the DOCTYPE declares the entity \"lol\"; Core Data stores declare nothing, and this reader never expands entities or loads DTDs. The file was not written by Core Data; do not open it unless you know where it comes from."
        ),
        (
            "HostileExternalDTD.xml", .malformedXML,
            "HostileExternalDTD.xml: line 12: the XML is not well-formed (Entity 'secret' not defined). The file is damaged; restore it from a backup if there is one."
        ),
        (
            "HostileParameterEntity.xml", .unsafeXML,
            "HostileParameterEntity.xml: line 3: the DOCTYPE declares the entity \"remote\"; Core Data stores declare nothing, and this reader never expands entities or loads DTDs. The file was not written by Core Data; do not open it unless you know where it comes from."
        ),
        (
            "HostileDeepNesting.xml", .limitExceeded,
            "HostileDeepNesting.xml: line 11: elements are nested more than 64 deep. A Core Data store nests a few levels only; the file is not a store or is hostile."
        ),
    ]

    /// Entity declarations are refused before anything expands; external DTDs are never loaded
    /// (the entity the DTD declares stays undefined); nesting is bounded.
    @Test(arguments: hostile)
    func refusesHostileXMLQuickly(_ fixture: String, _ code: StorageError.Code, _ message: String) throws {
        let start = ContinuousClock.now
        let error = #expect(throws: StorageError.self) { try XMLFixture.read(fixture, schema: nil) }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(error?.code == code)
        #expect(error?.description == message)
        if code != .malformedXML {
            // Refused in the prolog or the header: reading the metadata alone refuses them too.
            #expect(throws: StorageError.self) { try XMLStore.readMetadata(XMLFixture.data(fixture), file: fixture) }
        }
    }

    static let header =
        "<?xml version=\"1.0\"?>\n<database>\n<databaseInfo><version>134481920</version>"
        + "<UUID>343C8D7F-A000-42C4-8463-43FA1E5EF3FB</UUID>"

    /// Generated rather than kept as fixtures: each is over 10 MB (or 50 kB for the name).
    @Test(arguments: [
        (
            "name.xml", header + "<metadata/></databaseInfo>\n<" + String(repeating: "n", count: 50_001) + "/></database>",
            "name.xml: line 4: an element name is longer than 50,000 bytes. A Core Data store uses a few short element names; the file is not a store or is hostile."
        ),
        (
            "attribute.xml",
            header + "<metadata/></databaseInfo>\n<object type=\"ITEM\" id=\"" + String(repeating: "1", count: 10_000_001)
                + "\"></object></database>",
            "attribute.xml: line 4: the attribute id of <object> is 10,000,001 bytes long, over the limit of 10,000,000. Core Data stores hold no names or values that long there; the file is not a store or is hostile."
        ),
    ])
    func refusesOversizedContent(_ file: String, _ text: String, _ message: String) throws {
        let start = ContinuousClock.now
        let error = #expect(throws: StorageError.self) {
            try XMLStore.read(Data(text.utf8), schema: try XMLFixture.nestedListSchema(), file: file)
        }
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(error?.code == .limitExceeded)
        #expect(error?.description == message)
    }

    /// Values and metadata over libxml2's 10 MB limit for one value, and a to-many relationship
    /// whose `idrefs` are longer than that: all of them a binary document holds, so the XML
    /// store reads them too, and what it reads goes back to binary and XML unchanged.
    @Test func valuesAndIDListsOverTenMegabytesReadAndRoundTrip() throws {
        let big = String(repeating: "x", count: 10_000_001)
        // Ids of 19 digits: 21 bytes each in `idrefs`, so 500,000 of them take 10.5 MB.
        let children = 500_000
        let first: UInt64 = 4_000_000_000_000_000_000
        var text = [UInt8]()
        text.reserveCapacity(70_000_000)
        func add(_ string: String) { text.append(contentsOf: string.utf8) }
        add(
            Self.header + "<metadata><plist version=\"1.0\"><dict><key>k</key><string>" + big + "</string></dict></plist></metadata></databaseInfo>\n"
        )
        add("<object type=\"ITEM\" id=\"z1\"><attribute name=\"title\" type=\"string\">" + big + "</attribute>")
        add("<relationship name=\"children\" type=\"0/0\" destination=\"ITEM\" idrefs=\"")
        for i in 0 ..< children { add(i == 0 ? "z\(first)" : " z\(first + UInt64(i))") }
        add("\"></relationship></object>\n")
        for i in 0 ..< children {
            add(
                "<object type=\"ITEM\" id=\"z\(first + UInt64(i))\"><relationship name=\"parent\" type=\"1/1\" destination=\"ITEM\" idrefs=\"z1\"></relationship></object>\n"
            )
        }
        add("</database>")
        let clock = ContinuousClock.now
        let store = try PersistentStore.load(text, schema: try XMLFixture.nestedListSchema(), name: "big.xml")
        #expect(store.metadata[custom: "k"] == .string(big))
        print("read \(ContinuousClock.now - clock)")
        for format in [DocumentFormat.binary, .xml] {
            let again = try PersistentStore.load(try store.encoded(as: format), schema: store.schema, name: "again")
            #expect(again.context.graph.objectCount == children + 1)
            #expect(again.metadata[custom: "k"] == .string(big))
            print("\(format) \(ContinuousClock.now - clock)")
        }
    }

    @Test func hashMismatchNamesEveryEntityThatDiffers() throws {
        let error = #expect(throws: StorageError.self) {
            try XMLFixture.read("Malformed/WrongHashes.xml", schema: try XMLFixture.nestedListSchema())
        }
        #expect(error?.code == .incompatibleModel)
        #expect(error?.message.contains("Folder is only in the store; Item differs") == true)
    }

    @Test func anEmbeddedModelThatDoesNotMatchTheHashesIsRefused() throws {
        var text = XMLFixture.text(try XMLFixture.data("EmbeddedModel.xml"))
        text = text.replacingOccurrences(of: "AVRI7Zz/vrky+ylILa3tUItR4PnzUR/N6MUoZWcR6vU=", with: "Gl79yicU/qMmmjW+02T6r/N/3wY/MXt1/ETG6BgiQvk=")
        let error = #expect(throws: StorageError.self) { try XMLStore.read(Data(text.utf8), schema: nil, file: "e.xml") }
        #expect(
            error?.description
                == "e.xml: line 42: the store was written with another version of the model (Item differs). Open it with the model version it was written with; migrating it to this one is a separate step."
        )
    }
}
