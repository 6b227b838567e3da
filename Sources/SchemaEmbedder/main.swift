import Foundation

// Build tool: writes a Swift file holding every file under a folder as a string literal.
// Usage: SchemaEmbedder SCHEMAS_DIR OUTPUT_SWIFT_FILE

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: SchemaEmbedder SCHEMAS_DIR OUTPUT\n".utf8))
    exit(64)
}
let root = URL(fileURLWithPath: arguments[1]).standardizedFileURL
let output = URL(fileURLWithPath: arguments[2])

var files: [(path: String, text: String)] = []
if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) {
    for case let url as URL in walker {
        guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
        let relative = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
        guard let data = FileManager.default.contents(atPath: url.path),
            let text = String(data: data, encoding: .utf8)
        else {
            FileHandle.standardError.write(Data("error: \(url.path): not a UTF-8 text file\n".utf8))
            exit(1)
        }
        files.append((relative, text))
    }
}
files.sort { $0.path < $1.path }

/// A raw string literal whose delimiter cannot occur in `text`.
func literal(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\"\"\"" + hashes) { hashes += "#" }
    return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
}

var source = """
    // Generated at build time by SchemaEmbedder from the package's Schemas/ folder. Do not edit.

    /// The files of the package's `Schemas/` folder, by path relative to it.
    enum EmbeddedSchemas {
        static let files: [String: String] = [

    """
for file in files {
    source += "        #\"\(file.path)\"#: \(literal(file.text)),\n"
}
source += files.isEmpty ? "        :\n    ]\n}\n" : "    ]\n}\n"

do {
    try Data(source.utf8).write(to: output, options: .atomic)
} catch {
    FileHandle.standardError.write(Data("error: \(output.path): \(error)\n".utf8))
    exit(1)
}
