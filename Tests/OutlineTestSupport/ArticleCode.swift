import Foundation

/// Keeps the code of the DocC articles compiling: every ```` ```swift ```` block of an article
/// must appear, line for line, in a test source file of the module's tests that runs it.
public enum ArticleCode {
    /// The articles (`.md` files) of the DocC catalog `Sources/MODULE/MODULE.docc`, sorted.
    public static func articles(ofModule module: String) throws -> [URL] {
        let catalog = PackagePaths.file("Sources/\(module)/\(module).docc")
        return try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The ```` ```swift ```` blocks of a Markdown text, each as its lines without the fences.
    public static func swiftBlocks(in markdown: String) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if let lines = current, trimmed == "```" {
                blocks.append(lines)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Whether `block` appears in `source` as consecutive lines, all indented by the same number
    /// of spaces (0 to 16): the article's code as a test's function body.
    public static func source(_ source: String, contains block: [String]) -> Bool {
        for indent in stride(from: 0, through: 16, by: 4) {
            let prefix = String(repeating: " ", count: indent)
            let indented = block.map { $0.isEmpty ? "" : prefix + $0 }.joined(separator: "\n")
            if source.contains(indented + "\n") { return true }
        }
        return false
    }

    /// The blocks of the articles of `module` that appear in no Swift file of the test folder
    /// `testFolder` (relative to the package root), as `ARTICLE: FIRST LINE` for a readable
    /// failure; and how many blocks there were in all, so that a test can tell that it checked
    /// something. Any test file of the folder may hold an article's code, so an article and
    /// its test can be added together without touching the others.
    public static func missingBlocks(ofModule module: String, in testFolder: String) throws -> (missing: [String], checked: Int) {
        let folder = PackagePaths.file(testFolder)
        let sources = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .map { try String(contentsOf: $0, encoding: .utf8) }
        var missing: [String] = []
        var checked = 0
        for article in try articles(ofModule: module) {
            for block in swiftBlocks(in: try String(contentsOf: article, encoding: .utf8)) {
                checked += 1
                if !sources.contains(where: { Self.source($0, contains: block) }) {
                    missing.append("\(article.lastPathComponent): \(block.first ?? "")")
                }
            }
        }
        return (missing, checked)
    }
}
