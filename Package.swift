// swift-tools-version:6.0
// auditd — an accessibility audit daemon for mobile and web UI snapshots.
import PackageDescription

let layerSettings: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release)),
]

let package = Package(
    name: "auditd",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "AuditCore", targets: ["AuditCore"]),
        .executable(name: "auditd", targets: ["auditd"]),
        .executable(name: "auditctl", targets: ["auditctl"]),
        .executable(name: "auditbench", targets: ["auditbench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(
            name: "AuditSupport",
            path: "Sources/AuditSupport",
            swiftSettings: [
                // Byte sinks and JSON writers are generic and on every report's hot path: let
                // AuditCore specialise and inline them across the module boundary.
                .unsafeFlags(["-cross-module-optimization", "-enforce-exclusivity=unchecked"], .when(configuration: .release)),
            ]
        ),
        .target(
            name: "CImageCodecs",
            path: "Sources/CImageCodecs",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        // The library, one target per layer, each depending only on those below it (the
        // compiler refuses a cycle): model → parsing, screen reader → rules → rule sets → reporting → engine.
        // AuditCore re-exports them all. Every layer is hot code: dynamic exclusivity checks
        // cost about a tenth of parse time (docs/PERFORMANCE.md), and generics and small
        // accessors must be specialised and inlined across the layers.
        .target(
            name: "AuditModel",
            dependencies: ["AuditSupport", "CImageCodecs"],
            path: "Sources/AuditModel",
            swiftSettings: layerSettings
        ),
        .target(
            name: "AuditParsing",
            dependencies: ["AuditModel", "CLibXML2"],
            path: "Sources/AuditParsing",
            swiftSettings: layerSettings
        ),
        .target(
            name: "AuditScreenReader",
            dependencies: ["AuditModel"],
            path: "Sources/AuditScreenReader",
            swiftSettings: layerSettings
        ),
        .target(
            name: "AuditRules",
            dependencies: ["AuditModel", "AuditScreenReader"],
            path: "Sources/AuditRules",
            swiftSettings: layerSettings
        ),
        .target(
            name: "AuditRuleSets",
            dependencies: ["AuditParsing", "AuditRules", "CLibXML2"],
            path: "Sources/AuditRuleSets",
            swiftSettings: layerSettings
        ),
        .target(
            name: "AuditReporting",
            dependencies: ["AuditRuleSets"],
            path: "Sources/AuditReporting",
            swiftSettings: layerSettings
        ),
        .target(
            name: "AuditEngine",
            dependencies: ["AuditReporting"],
            path: "Sources/AuditEngine",
            swiftSettings: layerSettings
        ),
        .target(
            name: "AuditCore",
            dependencies: ["AuditEngine"],
            path: "Sources/AuditCore",
            swiftSettings: layerSettings
        ),
        .systemLibrary(
            name: "CSystem",
            path: "Sources/CSystem"
        ),
        // OCR of screenshots (Sources/AuditOCR): Tesseract's C API, opened with dlopen
        // when first asked for, not linked (Sources/CTesseract/shim.h).
        .systemLibrary(
            name: "CTesseract",
            path: "Sources/CTesseract",
            providers: [.apt(["libtesseract-dev", "libleptonica-dev", "tesseract-ocr-eng"])]
        ),
        .target(
            name: "AuditOCR",
            dependencies: ["AuditModel", "CTesseract"],
            path: "Sources/AuditOCR",
            swiftSettings: layerSettings
        ),
        // The trend index beside the journal (Sources/AuditHistory).
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The history of audits as a library: the journal's records read, indexed in SQLite
        // and compared build with build (trends, baselines). The daemon keeps its index
        // beside the journal with it; auditctl answers from a journal file with it alone.
        .target(
            name: "AuditHistory",
            dependencies: ["AuditCore", "CSQLite"],
            path: "Sources/AuditHistory"
        ),
        // The daemon's transport, knowing nothing of audits: the strict HTTP/1.1 codec and
        // multipart forms, the epoll event loop and its timers, channels and output queues,
        // the work pools and the memory budget.
        .target(
            name: "AuditTransport",
            dependencies: ["AuditSupport", "CSystem"],
            path: "Sources/AuditTransport",
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        .target(
            name: "AuditDaemonKit",
            dependencies: ["AuditCore", "AuditCommandLine", "AuditHistory", "AuditTransport", "AuditOCR", "CSystem", "CSQLite"],
            path: "Sources/AuditDaemonKit",
            // The connection, journal and metrics are loop- or lock-confined; their dynamic
            // exclusivity checks were 4% of the daemon's CPU under load (docs/PERFORMANCE.md).
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "auditd",
            dependencies: ["AuditDaemonKit"],
            path: "Sources/auditd"
        ),
        .target(
            name: "AuditCommandLine",
            dependencies: ["AuditSupport"],
            path: "Sources/AuditCommandLine"
        ),
        .target(
            name: "AuditClient",
            dependencies: ["AuditSupport"],
            path: "Sources/AuditClient"
        ),
        // The output formats of `auditctl audit` (text, JSON, SARIF, JUnit, HTML) and the
        // daemon's answers they read: a library, so tests render reports directly.
        .target(
            name: "AuditFormats",
            dependencies: ["AuditCore"],
            path: "Sources/AuditFormats"
        ),
        .executableTarget(
            name: "auditctl",
            dependencies: ["AuditCore", "AuditClient", "AuditCommandLine", "AuditFormats", "AuditHistory"],
            path: "Sources/auditctl"
        ),
        .executableTarget(
            name: "auditbench",
            dependencies: ["AuditCore", "AuditClient", "CLibXML2"],
            path: "Benchmarks/auditbench"
        ),
        .executableTarget(
            name: "auditfuzz",
            dependencies: ["AuditCore", "AuditDaemonKit", "AuditTransport"],
            path: "Fuzz/auditfuzz"
        ),
        .testTarget(
            name: "AuditCoreTests",
            dependencies: [
                "AuditCore", "AuditModel", "AuditParsing", "AuditScreenReader", "AuditRules", "AuditRuleSets", "AuditReporting", "AuditEngine",
                "AuditOCR",
            ],
            path: "Tests/AuditCoreTests"
        ),
        .target(
            name: "TransportTestSupport",
            dependencies: ["AuditTransport"],
            path: "Tests/TransportTestSupport"
        ),
        .testTarget(
            name: "AuditCommandLineTests",
            dependencies: ["AuditCommandLine"],
            path: "Tests/AuditCommandLineTests"
        ),
        .testTarget(
            name: "AuditTransportTests",
            dependencies: ["AuditTransport", "AuditSupport", "TransportTestSupport"],
            path: "Tests/AuditTransportTests"
        ),
        .testTarget(
            name: "AuditDaemonKitTests",
            dependencies: ["AuditDaemonKit", "AuditHistory", "AuditTransport", "AuditCore"],
            path: "Tests/AuditDaemonKitTests"
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["AuditCore", "AuditClient", "AuditFormats"],
            path: "Tests/IntegrationTests",
            exclude: ["Golden", "Hostile", "Browser", "Schemas", "Identity", "ScreenReaders"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
