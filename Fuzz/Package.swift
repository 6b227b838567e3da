// swift-tools-version:6.1
import PackageDescription

// libFuzzer harnesses for the readers of untrusted input, kept out of the main build.
// Build and run them with `Fuzz/run.sh TARGET [SECONDS]` (see README.md): the Swift code is built
// with `-sanitize=fuzzer,address`, and each executable's `main.swift` hands its test function
// to libFuzzer's driver (`FuzzSupport/FuzzMain.swift`).
let package = Package(
    name: "OutlineFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Outline", path: "..")],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer",
                .product(name: "OutlineEngine", package: "Outline"),
                .product(name: "OutlineStorage", package: "Outline"),
            ]
        ),
        .executableTarget(name: "FuzzBinaryStore", dependencies: ["FuzzSupport", .product(name: "OutlineStorage", package: "Outline")]),
        .executableTarget(name: "FuzzXMLStore", dependencies: ["FuzzSupport", .product(name: "OutlineStorage", package: "Outline")]),
        .executableTarget(name: "FuzzModelReader", dependencies: ["FuzzSupport", .product(name: "OutlineStorage", package: "Outline")]),
        .executableTarget(name: "FuzzOPMLReader", dependencies: ["FuzzSupport", .product(name: "OutlineStorage", package: "Outline")]),
        .executableTarget(name: "FuzzPredicate", dependencies: ["FuzzSupport", .product(name: "OutlineEngine", package: "Outline")]),
    ]
)
