import Foundation
import OutlineEngine
import OutlineStorage
import OutlineTestSupport
import Testing

/// A store written by Apple's Core Data (a 2006 document-based app, published on the CocoaDev
/// wiki): plain prolog, empty metadata, objects out of id order, both sides of a relationship.
@Suite struct XMLRealFileTests {
    static let path = PackagePaths.fixture("XML/Real/Vehicles.xml").path

    /// The app's model as the store implies it (names as Core Data's editor would have them).
    static func model() throws -> Schema {
        try Schema(
            name: "Vehicles",
            entities: [
                Entity(
                    name: "Vehicle",
                    attributes: [
                        Attribute(name: "make", type: .string), Attribute(name: "model", type: .string),
                        Attribute(name: "nickname", type: .string), Attribute(name: "year", type: .integer32),
                    ],
                    relationships: [
                        Relationship(
                            name: "vehiclePictures", destination: "VehiclePicture", inverse: "picturesForVehicle",
                            isToMany: true, deleteRule: .cascade)
                    ]),
                Entity(
                    name: "VehiclePicture",
                    attributes: [
                        Attribute(name: "pictureName", type: .string), Attribute(name: "sequence", type: .integer32),
                    ],
                    relationships: [
                        Relationship(name: "picturesForVehicle", destination: "Vehicle", inverse: "vehiclePictures")
                    ]),
            ])
    }

    @Test func opensWithItsModelMatchingNamesCaseInsensitively() throws {
        let store = try PersistentStore.open(Self.path, schema: try Self.model())
        let context = store.context
        let vehicle = try #require(context.object(with: ObjectID(102)))
        #expect(try context.value(forKey: "year", of: vehicle) == .integer(2006))
        #expect(try context.objects(forKey: "vehiclePictures", of: vehicle).map(context.objectID(of:)) == [ObjectID(104), ObjectID(103)])
        let picture = try #require(context.object(with: ObjectID(103)))
        #expect(try context.object(forKey: "picturesForVehicle", of: picture) == vehicle)
        #expect(store.metadata.uuid == UUID(uuidString: "343C8D7F-A000-42C4-8463-43FA1E5EF3FB"))
        #expect(context.graph.nextID == 105)
        // Cascade from the model's delete rule, then a save and a reload.
        try context.delete(vehicle)
        #expect(context.graph.objectCount == 0)
    }

    @Test func opensWithoutAModelAndConvertsToBinaryAndBack() throws {
        let store = try PersistentStore.open(Self.path)
        #expect(store.schema.entities.map(\.name).sorted() == ["VEHICLE", "VEHICLEPICTURE"])
        let picture = try #require(store.schema.info(named: "VEHICLEPICTURE"))
        #expect(picture.relationships.map(\.name) == ["picturesforvehicle"] && !picture.relationships[0].isToMany)
        #expect(store.context.graph.objectCount == 3)
        let binary = try PersistentStore.load(try store.encoded(as: .binary))
        #expect(snapshot(binary.context.graph) == snapshot(store.context.graph))
        let xml = try store.encoded(as: .xml)
        #expect(try PersistentStore.load(xml).encoded(as: .xml) == xml)
    }
}
