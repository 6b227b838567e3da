// swift-tools-version:6.1
import PackageDescription

// The outline benchmark, kept out of the main build: `cd Benchmarks && swift run -c release`.
// It measures the library against floors (zlib, libxml2, the file system) and peers (SQLite
// through GRDB, Codable JSON) on the same generated outlines; see README.md.
let package = Package(
    name: "OutlineBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Outline", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Floors call zlib and libxml2 directly; names differ from the main package's CZlib/CLibXML2.
        .systemLibrary(name: "BenchZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "BenchLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .executableTarget(
            name: "OutlineBenchmark",
            dependencies: [
                "BenchZlib", "BenchLibXML2",
                .product(name: "OutlineKit", package: "Outline"),
                .product(name: "OutlineTool", package: "Outline"),
                .product(name: "OutlineEditor", package: "Outline"),
                .product(name: "OutlineStorage", package: "Outline"),
                .product(name: "OutlineEngine", package: "Outline"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)
