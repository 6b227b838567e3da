import OutlineEngine

/// Where the parts of an outline live in a schema: the `Item` entity with its tree
/// (`parent`, `children`, `order`), its text, and the attributes later versions add.
///
/// Every outline type resolves the schema through this one type, so what counts as an
/// outline is decided in one place. Version 1 calls the text `title` and has none of the
/// optional attributes.
public struct OutlineShape: Sendable, Equatable {
    /// The `Item` entity.
    public let item: EntityIndex
    /// `Item.order`: the 0-based position among siblings.
    public let order: AttributeIndex
    /// `Item.text` (`Item.title` in version 1).
    public let text: AttributeIndex
    /// `Item.parent` (to-one).
    public let parent: RelationshipIndex
    /// `Item.children` (to-many, the inverse of `parent`).
    public let children: RelationshipIndex
    /// `Item.note`, from version 2.
    public let note: AttributeIndex?
    /// `Item.done`, from version 2.
    public let done: AttributeIndex?
    /// `Item.collapsed`, from version 3.
    public let collapsed: AttributeIndex?
    /// `Item.created`, when the schema has it.
    public let created: AttributeIndex?
    /// `Item.extraAttributes`: interchange attributes kept for export, from version 3.
    public let extraAttributes: AttributeIndex?
    /// The tags, from version 3: the `Tag` entity, its `name`, and the to-many `Item.tags`
    /// whose inverse is `Tag.items`.
    public let tags: TagShape?

    /// Where tags live in a schema that has them.
    public struct TagShape: Sendable, Equatable {
        /// The `Tag` entity.
        public let entity: EntityIndex
        /// `Tag.name`, a string.
        public let name: AttributeIndex
        /// `Item.tags` (to-many).
        public let itemTags: RelationshipIndex
        /// `Tag.items` (to-many, the inverse of `Item.tags`).
        public let items: RelationshipIndex
    }

    /// The outline shape of `schema`.
    ///
    /// - Throws: ``OutlineError`` `notAnOutline` when the schema has no `Item` entity with a
    ///   tree (`parent` and `children`, inverses of each other), an integer `order` and a text.
    public init(schema: Schema) throws {
        guard let info = schema.info(named: "Item"), let tree = TreeShape(entity: info), let order = tree.order,
            let text = info.attributeIndex(named: "text") ?? info.attributeIndex(named: "title")
        else {
            throw OutlineError(
                .notAnOutline, at: schema.name.isEmpty ? nil : schema.name,
                "the document is not an outline: its model has \(Self.entityList(schema)) and no outline Item "
                    + "(an entity with order, text or title, children and parent)",
                hint: "It can still be inspected, validated, converted between store formats and listed object by object.")
        }
        item = info.index
        self.order = order
        self.text = text
        parent = tree.parent
        children = tree.children
        note = info.attributeIndex(named: "note")
        done = info.attributeIndex(named: "done")
        collapsed = info.attributeIndex(named: "collapsed")
        created = info.attributeIndex(named: "created")
        extraAttributes = info.attributeIndex(named: "extraAttributes")
        tags = Self.tagShape(schema, item: info)
    }

    /// The tag shape when `Item.tags` is a to-many relationship to an entity with a string
    /// `name` whose to-many inverse points back.
    private static func tagShape(_ schema: Schema, item info: EntityInfo) -> TagShape? {
        guard let itemTags = info.relationshipIndex(named: "tags"), info[itemTags].isToMany else { return nil }
        let tagEntity = info.destination(of: itemTags)
        guard tagEntity != info.index else { return nil }
        let tag = schema[tagEntity]
        guard let name = tag.attributeIndex(named: "name"), tag[name].type == .string,
            let items = info.inverse(of: itemTags), tag[items].isToMany
        else { return nil }
        return TagShape(entity: tagEntity, name: name, itemTags: itemTags, items: items)
    }

    /// "the entities A, B, C and 2 more", for messages.
    private static func entityList(_ schema: Schema) -> String {
        let names = schema.entities.map(\.name)
        guard !names.isEmpty else { return "no entities" }
        let shown = names.prefix(5).joined(separator: ", ")
        let rest = names.count > 5 ? " and \(names.count - 5) more" : ""
        return "\(names.count == 1 ? "the entity" : "the entities") \(shown)\(rest)"
    }
}
