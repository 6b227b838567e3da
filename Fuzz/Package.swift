// swift-tools-version:6.1
import PackageDescription

// libFuzzer harnesses for the readers of untrusted input, kept out of the main build.
// Build and run them with `Fuzz/run.sh TARGET [SECONDS]` (see README.md): all Swift code is built
// with AddressSanitizer and libFuzzer's coverage (`-sanitize=address -sanitize-coverage=...`),
// only the harnesses link libFuzzer (`fuzzer` below: the main package's build-tool plugin, which
// OutlineKit needs, must stay a plain program), and each executable's `main.swift` hands its
// test function to libFuzzer's driver (`FuzzSupport/FuzzMain.swift`).
let fuzzer: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]
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
        .executableTarget(
            name: "FuzzBinaryStore", dependencies: ["FuzzSupport", .product(name: "OutlineStorage", package: "Outline")], linkerSettings: fuzzer),
        .executableTarget(
            name: "FuzzXMLStore", dependencies: ["FuzzSupport", .product(name: "OutlineStorage", package: "Outline")], linkerSettings: fuzzer),
        .executableTarget(
            name: "FuzzModelReader", dependencies: ["FuzzSupport", .product(name: "OutlineStorage", package: "Outline")], linkerSettings: fuzzer),
        .executableTarget(
            name: "FuzzOPMLReader",
            dependencies: [
                "FuzzSupport", .product(name: "OutlineStorage", package: "Outline"), .product(name: "OutlineKit", package: "Outline"),
            ], linkerSettings: fuzzer),
        .executableTarget(
            name: "FuzzPredicate", dependencies: ["FuzzSupport", .product(name: "OutlineEngine", package: "Outline")], linkerSettings: fuzzer),
    ]
)
