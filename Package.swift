// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "sitegen",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "sitegen", targets: ["sitegen"]),
        .library(name: "SitegenKit", targets: ["SitegenKit"]),
    ],
    dependencies: [
        // Command-line parsing for the thin executable.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // site.yml: node-level API gives line/column for every key.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The reference Mustache implementation: tests check that sitegen's renderer
        // (SitegenRender/Templating) produces the same bytes on every page.
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        // SHA-256 for manifest.json (CryptoKit is not available on Linux).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // `sitegen serve`: HummingbirdCore on SwiftNIO, whose HTTP parser is linear and bounded and
        // whose server keeps listening under connection caps and accept failures (FlyingFox 0.27
        // has no request-size limits, issue #19). Traits off: no swift-configuration to build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.14.0"),
    ],
    targets: [
        // Debian's cmark-gfm (libcmark-gfm-dev + libcmark-gfm-extensions-dev).
        .systemLibrary(
            name: "CMarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // Debian's cairo, Pango and zlib: link preview images (SitegenRender/Previews), with
        // DejaVu Sans and the Noto fonts Pango falls back on for other scripts and emoji.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev", "zlib1g-dev", "fonts-dejavu-core",
                              "fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji"])]
        ),
        // renameat2(RENAME_EXCHANGE): swaps the staged site into place atomically.
        .target(name: "CFileSwap"),
        // mallopt: a streaming build returns freed memory to the system (peak memory, issue #8).
        .target(name: "CHeap"),
        // SitegenKit is split into targets with one direction of dependency (docs/architecture.md):
        // SitegenCore ← SitegenModel ← SitegenInput ← SitegenOutput ← SitegenRender ← SitegenKit (the pipeline).
        // Diagnostics, positions, formatting, hashing and small concurrency helpers.
        .target(
            name: "SitegenCore",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")]
        ),
        // The domain: polls, trips, itineraries, convoys, option sets, tips, and the rules
        // over them (Borda count, grouping, timelines, convoy readiness, tip rotation).
        .target(name: "SitegenModel", dependencies: ["SitegenCore"]),
        // Reading what a build is given: site.yml, JSON exports and CloudKit dumps, front
        // matter, the tip catalog.
        .target(
            name: "SitegenInput",
            dependencies: [
                "SitegenCore",
                "SitegenModel",
                .product(name: "Yams", package: "Yams"),
            ],
            // The built-in tip catalog, compiled into the binary so an installed sitegen needs no data files.
            resources: [.embedInCode("Resources/tips.json")]
        ),
        // Writing the published site: one owner (SiteOutput) of the lock, staging folder, build
        // state, manifest and atomic swap, on disk (OutputFolder) or in memory (MemoryOutput).
        .target(
            name: "SitegenOutput",
            dependencies: ["SitegenCore", "SitegenInput", "CFileSwap"]
        ),
        // Pages: typed page models, Mustache templates checked against them, Markdown through
        // cmark-gfm, calendar and GPX files, link preview cards drawn with cairo.
        .target(
            name: "SitegenRender",
            dependencies: [
                "SitegenCore",
                "SitegenModel",
                "SitegenInput",
                "SitegenOutput",
                "CMarkGFM",
                "CCairo",
            ]
        ),
        // The pipeline: config → read → check → compute → plan → render → publish, and its reporter.
        .target(
            name: "SitegenKit",
            dependencies: [
                "SitegenCore",
                "SitegenModel",
                "SitegenInput",
                "SitegenOutput",
                "SitegenRender",
                "CHeap",
            ]
        ),
        // `sitegen init`: the starter site in StarterSite/, compiled into the binary so an installed
        // sitegen needs no repository. Its Templates and sample exports are symlinks to the
        // repository's own files (SwiftPM follows them), so there is no copy to keep in sync.
        // `.embedInCode` names each file by its bare name: two files of one name are a build error.
        .target(
            name: "SitegenInit",
            dependencies: ["SitegenCore"],
            resources: [.embedInCode("StarterSite")]
        ),
        // The preview server of `sitegen serve`, kept out of SitegenKit so the library stays server-free.
        .target(
            name: "SitegenServe",
            dependencies: [
                "SitegenCore",
                "SitegenInput",
                "SitegenOutput",
                "SitegenKit",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "sitegen",
            dependencies: [
                "SitegenCore",
                "SitegenInput",
                "SitegenKit",
                "SitegenServe",
                "SitegenInit",
                "CHeap",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Times the link preview cards in one process (Benchmarks/README.md, "Cards in one process").
        .executableTarget(name: "card-bench",
                         dependencies: ["SitegenModel", "SitegenRender",
                                        .product(name: "ArgumentParser", package: "swift-argument-parser")],
                         path: "Benchmarks/CardBench"),
        .testTarget(
            name: "SitegenKitTests",
            dependencies: [
                "SitegenCore",
                "SitegenModel",
                "SitegenInput",
                "SitegenOutput",
                "SitegenRender",
                "SitegenKit",
                "SitegenServe",
                "SitegenInit",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
