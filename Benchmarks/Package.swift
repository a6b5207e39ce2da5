// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ReactiveSourcesBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ReactiveSources", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    ],
    targets: [
        .target(name: "CMallocStats"),
        .target(
            name: "BenchCases",
            dependencies: [
                "CMallocStats",
                .product(name: "Signals", package: "ReactiveSources"),
                .product(name: "ReactiveSources", package: "ReactiveSources"),
                .product(name: "ReactiveSourcesTesting", package: "ReactiveSources"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "_RopeModule", package: "swift-collections"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "reactive-bench",
            dependencies: ["BenchCases"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "reactive-profile",
            dependencies: ["BenchCases"],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ReactiveBenchmarks",
            dependencies: [
                "BenchCases",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ReactiveBenchmarks",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
