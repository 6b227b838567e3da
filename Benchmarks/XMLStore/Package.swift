// swift-tools-version:6.1
import PackageDescription

// Benchmarks of the XML store, kept out of the tests: `swift run -c release xml-store-benchmark [items]`.
let package = Package(
    name: "XMLStoreBenchmark",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Outline", path: "../..")],
    targets: [
        .executableTarget(
            name: "XMLStoreBenchmark",
            dependencies: [
                .product(name: "OutlineEngine", package: "Outline"),
                .product(name: "OutlineStorage", package: "Outline"),
            ]
        ),
    ]
)
