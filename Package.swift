// swift-tools-version:6.1
import PackageDescription

// Dependency direction (one way only):
//   OutlineCLI -> OutlineTool -> OutlineKit -> OutlineStorage -> OutlineEngine
// OutlineEngine is pure Swift: schema, object graph, editing, predicates, migration.
// OutlineStorage is the only module that talks to C (libxml2, zlib) and to files, apart from
// OutlineTerminal, the full-screen editor's thin layer over ncurses (CNcurses).
let package = Package(
    name: "Outline",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "outline", targets: ["OutlineCLI"]),
        .library(name: "OutlineEngine", targets: ["OutlineEngine"]),
        .library(name: "OutlineStorage", targets: ["OutlineStorage"]),
        .library(name: "OutlineKit", targets: ["OutlineKit"]),
        // The tool's own layer, a product only so that Benchmarks/ can measure what commands do.
        .library(name: "OutlineTool", targets: ["OutlineTool"]),
        // The full-screen editor's logic, a product so that Benchmarks/ can measure keystrokes.
        .library(name: "OutlineEditor", targets: ["OutlineEditor"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0" ..< "5.0.0"),
        // Documentation only: `swift package generate-documentation` builds the DocC catalogs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // C at the edge: module maps and shims only.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // No pkgConfig: ncursesw.pc adds -D flags SwiftPM refuses; the shim sets what it needs.
        .systemLibrary(name: "CNcurses", providers: [.apt(["libncurses-dev"])]),

        .target(
            name: "OutlineEngine",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "OutlineStorage",
            dependencies: ["OutlineEngine", "CLibXML2", "CZlib", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "OutlineKit",
            dependencies: ["OutlineEngine", "OutlineStorage"],
            plugins: ["EmbedSchemas"]
        ),
        // What the command-line tool does, apart from parsing arguments and printing: opening
        // files for editing, conversion, migration, reports and rendering.
        .target(
            name: "OutlineTool",
            dependencies: ["OutlineKit", "OutlineStorage", "OutlineEngine"]
        ),
        // `outline edit FILE`: keys -> actions -> screen contents, in plain Swift (no terminal).
        .target(name: "OutlineEditor", dependencies: ["OutlineKit", "OutlineEngine"]),
        // The thin layer between the editor and ncurses: the only module that imports CNcurses.
        .target(name: "OutlineTerminal", dependencies: ["OutlineEditor", "OutlineKit", "OutlineStorage", "CNcurses"]),
        .executableTarget(
            name: "OutlineCLI",
            dependencies: [
                "OutlineTool", "OutlineKit", "OutlineStorage", "OutlineEngine", "OutlineEditor", "OutlineTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Build-time embedding of Schemas/ into OutlineKit, so the binary needs no files beside it.
        .executableTarget(name: "SchemaEmbedder"),
        .plugin(name: "EmbedSchemas", capability: .buildTool(), dependencies: ["SchemaEmbedder"]),

        // What every test target shares: fixture paths, temporary folders, index literals.
        .target(name: "OutlineTestSupport", dependencies: ["OutlineKit", "OutlineEngine"], path: "Tests/OutlineTestSupport"),
        .testTarget(name: "OutlineEngineTests", dependencies: ["OutlineEngine", "OutlineTestSupport"]),
        .testTarget(name: "OutlineStorageTests", dependencies: ["OutlineStorage", "OutlineEngine", "OutlineTestSupport"]),
        .testTarget(name: "OutlineKitTests", dependencies: ["OutlineKit", "OutlineStorage", "OutlineEngine", "OutlineTestSupport"]),
        .testTarget(
            name: "OutlineToolTests",
            dependencies: [
                "OutlineTool", "OutlineKit", "OutlineStorage", "OutlineEngine", "OutlineTestSupport",
            ]),
        .testTarget(name: "OutlineEditorTests", dependencies: ["OutlineEditor", "OutlineKit", "OutlineEngine", "OutlineTestSupport"]),
        // Runs the built `outline` binary; depending on the tool makes `swift test` build it.
        .testTarget(
            name: "OutlineCLITests",
            dependencies: [
                "OutlineCLI", "OutlineTool", "OutlineKit", "OutlineStorage", "OutlineEngine", "OutlineTestSupport",
            ]),
    ]
)
