// swift-tools-version:5.4
// libFuzzer targets for sitegen (see docs/fuzzing.md). Tools version 5.4 on purpose:
// newer ones fail to link `-parse-as-library` with `-sanitize=fuzzer` (docs/fuzzing.md).
import PackageDescription

let package = Package(
    name: "sitegen-fuzz",
    dependencies: [.package(name: "sitegen", path: "..")],
    targets: [
        .executableTarget(name: "FuzzExports", dependencies: [.product(name: "SitegenKit", package: "sitegen")]),
        .executableTarget(name: "FuzzConfig", dependencies: [.product(name: "SitegenKit", package: "sitegen")]),
        .executableTarget(name: "FuzzMarkdown", dependencies: [.product(name: "SitegenKit", package: "sitegen")]),
        .executableTarget(name: "FuzzBuild", dependencies: [.product(name: "SitegenKit", package: "sitegen")]),
    ]
)
