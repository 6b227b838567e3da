import Foundation
import PackagePlugin

/// Embeds every file under the package's top-level `Schemas/` folder into the target as Swift
/// source, so the built binary carries its data models and `Schemas/` stays the one source of truth.
@main
struct EmbedSchemas: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let schemas = context.package.directoryURL.appending(path: "Schemas")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSchemas.swift")
        var inputs: [URL] = []
        if let walker = FileManager.default.enumerator(at: schemas, includingPropertiesForKeys: [.isRegularFileKey]) {
            for case let url as URL in walker {
                let values = try url.resourceValues(forKeys: [.isRegularFileKey])
                if values.isRegularFile == true { inputs.append(url) }
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding data models from Schemas/",
                executable: try context.tool(named: "SchemaEmbedder").url,
                arguments: [schemas.path, output.path],
                inputFiles: inputs.sorted { $0.path < $1.path },
                outputFiles: [output]
            )
        ]
    }
}
