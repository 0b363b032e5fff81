// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "OpenCareKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "OpenCareKitStore", targets: ["OpenCareKitStore"]),
        .executable(name: "opencarekit", targets: ["opencarekit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "OpenCareKitStore",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "opencarekit",
            dependencies: [
                "OpenCareKitStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "OpenCareKitBenchmarks",
            dependencies: ["OpenCareKitStore"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "OpenCareKitStoreTests",
            dependencies: ["OpenCareKitStore", "opencarekit"],
            resources: [.copy("Fixtures")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
