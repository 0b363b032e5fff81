// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "OpenCareKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenCareKitStore", targets: ["OpenCareKitStore"]),
        .library(name: "OpenCareKitUI", targets: ["OpenCareKitUI"]),
        .executable(name: "opencarekit", targets: ["opencarekit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "OpenCareKitStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // HTML/SVG components; knows no store.
        .target(
            name: "OpenCareKitUI",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The store conformance suite, shared by every backend's tests.
        .target(
            name: "OpenCareKitStoreConformance",
            dependencies: ["OpenCareKitStore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "opencarekit",
            dependencies: [
                "OpenCareKitStore", "OpenCareKitUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "OpenCareKitBenchmarks",
            dependencies: [
                "OpenCareKitStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenCareKitStoreTests",
            dependencies: [
                "OpenCareKitStore", "OpenCareKitStoreConformance", "opencarekit",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenCareKitUITests",
            dependencies: ["OpenCareKitUI"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
