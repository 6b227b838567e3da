import OutlineKit
import Testing

/// The command-line tool links OutlineKit; its schemas must come from the binary, not from files.
@Suite struct EmbeddedSchemaTests {
    @Test func currentSchemaReadsFromTheEmbeddedFiles() throws {
        #expect(OutlineSchemas.files.keys.contains("Outline.xcdatamodeld/.xccurrentversion"))
        #expect(try OutlineSchemas.current.name == "Outline 3")
    }
}
