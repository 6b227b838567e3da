import OutlineEditor
import OutlineEngine
import OutlineKit
import Testing

/// An outline in memory with an editor over it and an off-screen screen: tests type keys and
/// read what the screen shows.
final class EditorHarness {
    /// An item to build: its text and children.
    struct Node: Sendable {
        var text: String
        var children: [Node] = []
        var collapsed = false
        var done = false
        var note: String?
    }

    let document: OutlineDocument
    let editor: OutlineEditor
    var screen: ScreenBuffer

    init(_ nodes: [Node], width: Int = 60, height: Int = 12, readOnly: Bool = false, color: Bool = true) throws {
        document = try OutlineDocument(context: EditingContext(schema: try OutlineSchemas.current))
        let context = document.context
        context.isUndoRegistrationEnabled = false
        var stack: [(Node, ManagedObject)] = []
        for node in nodes.reversed() { stack.append((node, document.root)) }
        while let (node, parent) = stack.popLast() {
            let item = try document.insertItem(node.text, under: parent, note: node.note, done: node.done)
            if node.collapsed { try document.setCollapsed(true, of: item) }
            for child in node.children.reversed() { stack.append((child, item)) }
        }
        context.isUndoRegistrationEnabled = true
        context.markSaved()
        editor = OutlineEditor(
            document: document,
            options: EditorOptions(
                fileName: "test.outline", formatName: "binary",
                isReadOnly: readOnly, usesColor: color))
        screen = ScreenBuffer(width: width, height: height)
        editor.render(into: &screen)
    }

    /// Presses each key in turn, rendering after each as the terminal does; returns the last effect.
    @discardableResult
    func press(_ keys: EditorKey...) -> EditorEffect {
        press(keys)
    }

    @discardableResult
    func press(_ keys: [EditorKey]) -> EditorEffect {
        var effect = EditorEffect.none
        for key in keys {
            effect = editor.handle(key)
            editor.render(into: &screen)
        }
        return effect
    }

    /// Types `text` as characters.
    func type(_ text: String) { press(EditorKey.typing(text)) }

    /// Resizes the screen, as a terminal resize does.
    func resize(width: Int, height: Int) {
        screen = ScreenBuffer(width: width, height: height)
        editor.handle(.resize)
        editor.render(into: &screen)
    }

    /// The outline rows on screen (all but the status and message lines), empty ones dropped.
    var rows: [String] { Array(screen.lines.dropLast(2)).filter { !$0.isEmpty } }
    var statusLine: String { screen.line(screen.height - 2) }
    var messageLine: String { screen.line(screen.height - 1) }

    /// The text of the cursor item.
    var cursorText: String? { editor.cursor.flatMap(document.text(of:)) }

    /// The outline as indented text ("  " per level), everything, collapsed or not.
    var outline: [String] {
        var lines: [String] = []
        document.walk { item, depth in
            lines.append(String(repeating: "  ", count: depth - 1) + (document.text(of: item) ?? ""))
            return true
        }
        return lines
    }

    func item(_ text: String) throws -> ManagedObject {
        var found: ManagedObject?
        document.walk { item, _ in
            if found == nil && document.text(of: item) == text { found = item }
            return found == nil
        }
        return try #require(found, "no item “\(text)”")
    }
}

extension EditorHarness.Node: ExpressibleByStringLiteral {
    init(stringLiteral value: String) { self.init(text: value) }
}

extension EditorHarness.Node {
    static func node(
        _ text: String, collapsed: Bool = false, done: Bool = false, note: String? = nil,
        _ children: [EditorHarness.Node] = []
    ) -> EditorHarness.Node {
        EditorHarness.Node(text: text, children: children, collapsed: collapsed, done: done, note: note)
    }
}
