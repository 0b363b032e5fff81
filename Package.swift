// swift-tools-version:6.1
import PackageDescription
import Foundation

// `scripts/fuzz` builds with OPENCAREKIT_FUZZ=1 (into its own build folder): the code the fuzzers reach is instrumented
// for libFuzzer, and `opencarekit-fuzz` becomes libFuzzer's program instead of the replayer of saved inputs.
let fuzzing = ProcessInfo.processInfo.environment["OPENCAREKIT_FUZZ"] == "1"
let fuzzed: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"])] : []

let package = Package(
    name: "OpenCareKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenCareKitStore", targets: ["OpenCareKitStore"]),
        .library(name: "OpenCareKitDirectory", targets: ["OpenCareKitDirectory"]),
        .library(name: "OpenCareKitPostgres", targets: ["OpenCareKitPostgres"]),
        .library(name: "OpenCareKitRemote", targets: ["OpenCareKitRemote"]),
        .library(name: "OpenCareKitUI", targets: ["OpenCareKitUI"]),
        .library(name: "OpenCareKit", targets: ["OpenCareKit"]),
        .library(name: "OpenCareKitServer", targets: ["OpenCareKitServer"]),
        .library(name: "OpenCareKitSurveys", targets: ["OpenCareKitSurveys"]),
        .library(name: "OpenCareKitFHIR", targets: ["OpenCareKitFHIR"]),
        .executable(name: "opencarekit", targets: ["opencarekit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // `swift package generate-documentation`: the modules' DocC catalogs (scripts/test builds them, no warnings).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "OpenCareKitStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)] + fuzzed
        ),
        // A clinic's directory beside its care records: accounts, sessions, memberships, invitations, access tokens,
        // push subscriptions, reminder settings, messages, triage and the hash-chained audit log — and its SQLite
        // implementation with the SQLite care-record stores (one file per record in a data directory).
        .target(
            name: "OpenCareKitDirectory",
            dependencies: [
                "OpenCareKitStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The same stores and directory on PostgreSQL: every care record in one database, row-level security by record.
        .target(
            name: "OpenCareKitPostgres",
            dependencies: [
                "OpenCareKitStore", "OpenCareKitDirectory",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A store's remote that is an OpenCareKit server's care record (CareKit sync over HTTP).
        .target(
            name: "OpenCareKitRemote",
            dependencies: ["OpenCareKitStore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // HTML/SVG components; knows no store.
        // Its stylesheet and script are files in Resources/, compiled into the library (`embedInCode`): a deployed
        // binary needs no resource bundle beside it.
        .target(
            name: "OpenCareKitUI",
            resources: [.embedInCode("Resources/opencarekit.css"), .embedInCode("Resources/opencarekit.js")],
            swiftSettings: [.swiftLanguageMode(.v6)] + fuzzed
        ),
        // The glue, as in CareKit: view synchronizers, synchronized views, the daily tasks page, contacts, insights.
        .target(
            name: "OpenCareKit",
            dependencies: ["OpenCareKitStore", "OpenCareKitUI", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // ResearchKit-style surveys: onboarding, informed consent with signature, check-ins, their pages and outcomes.
        .target(
            name: "OpenCareKitSurveys",
            dependencies: ["OpenCareKitStore", "OpenCareKitUI", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.embedInCode("Resources/surveys.css"), .embedInCode("Resources/surveys.js")],
            swiftSettings: [.swiftLanguageMode(.v6)] + fuzzed
        ),
        // FHIR R4: a care record as a Bundle of Patient, CarePlan, Observation, QuestionnaireResponse, Consent, CareTeam.
        .target(
            name: "OpenCareKitFHIR",
            dependencies: ["OpenCareKitStore", "OpenCareKitDirectory", "OpenCareKitSurveys"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The care app over HTTP (Hummingbird 2): pages, forms, live updates, JSON API.
        .target(
            name: "OpenCareKitServer",
            dependencies: [
                "OpenCareKit", "OpenCareKitStore", "OpenCareKitDirectory", "OpenCareKitUI", "OpenCareKitSurveys", "OpenCareKitFHIR",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.embedInCode("Resources/app.js"), .embedInCode("Resources/host.css"), .embedInCode("Resources/sw.js"),
                        .embedInCode("Resources/outbox.js")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // What the fuzzers feed with arbitrary bytes, and the regression tests replay (Tests/Fuzz).
        .target(
            name: "OpenCareKitFuzzTargets",
            dependencies: ["OpenCareKitStore", "OpenCareKitSurveys", "OpenCareKitUI"],
            swiftSettings: [.swiftLanguageMode(.v6)] + fuzzed
        ),
        // libFuzzer's program (scripts/fuzz), or without OPENCAREKIT_FUZZ a replayer of saved inputs.
        // libFuzzer's driver, declared for Swift (scripts/fuzz links libFuzzer without its main).
        .target(name: "CLibFuzzer"),
        .executableTarget(
            name: "opencarekit-fuzz",
            dependencies: ["OpenCareKitFuzzTargets", "CLibFuzzer"],
            swiftSettings: [.swiftLanguageMode(.v6)] + (fuzzing ? [.unsafeFlags(["-sanitize=fuzzer"]), .define("FUZZING")] : [])
        ),
        // The store conformance suite, shared by every backend's tests.
        .target(
            name: "OpenCareKitStoreConformance",
            dependencies: ["OpenCareKitStore", "OpenCareKitDirectory", "OpenCareKitSurveys"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "opencarekit",
            dependencies: [
                "OpenCareKitStore", "OpenCareKitDirectory", "OpenCareKitUI", "OpenCareKit", "OpenCareKitServer", "OpenCareKitSurveys",
                "OpenCareKitPostgres", "OpenCareKitRemote",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A custom store in a few lines and OpenCareKit's own, used from top-level code (the example of the article Write a custom store).
        .executableTarget(
            name: "opencarekit-example",
            dependencies: ["OpenCareKitStore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "OpenCareKitBenchmarks",
            dependencies: [
                "OpenCareKitStore", "OpenCareKitDirectory", "OpenCareKitPostgres", "OpenCareKit", "OpenCareKitServer", "OpenCareKitFHIR",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "OpenCareKitCommandTesting",
            path: "Tests/Support/OpenCareKitCommandTesting",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The PostgreSQL cluster and databases the tests use (the store's, the server's).
        .target(
            name: "OpenCareKitPostgresTesting",
            dependencies: [
                "OpenCareKitPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/Support/OpenCareKitPostgresTesting",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenCareKitStoreTests",
            dependencies: [
                "OpenCareKitStore", "OpenCareKitDirectory", "OpenCareKitStoreConformance", "opencarekit", "OpenCareKitCommandTesting",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenCareKitPostgresTests",
            dependencies: [
                "OpenCareKitPostgres", "OpenCareKitServer", "OpenCareKitStore", "OpenCareKitDirectory", "OpenCareKitStoreConformance",
                "OpenCareKitSurveys", "opencarekit",
                "OpenCareKitCommandTesting", "OpenCareKitPostgresTesting",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenCareKitTests",
            dependencies: ["OpenCareKit", "OpenCareKitStore", "OpenCareKitUI", "OpenCareKitCommandTesting"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenCareKitSurveysTests",
            dependencies: ["OpenCareKitSurveys", "OpenCareKitStore", "OpenCareKitUI", "OpenCareKitFuzzTargets"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenCareKitServerTests",
            dependencies: [
                "OpenCareKitServer", "OpenCareKit", "OpenCareKitStore", "OpenCareKitDirectory", "OpenCareKitSurveys", "OpenCareKitUI",
                "OpenCareKitFHIR",
                "OpenCareKitCommandTesting", "OpenCareKitPostgres", "OpenCareKitPostgresTesting", "OpenCareKitStoreConformance",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenCareKitUITests",
            dependencies: ["OpenCareKitUI"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
