// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "ReactiveSources",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Signals", targets: ["Signals"]),
        .library(name: "ReactiveSources", targets: ["ReactiveSources"]),
        // Test support for users of the library: a manual clock for virtual time and a
        // batch-update validator for change sets.
        .library(name: "ReactiveSourcesTesting", targets: ["ReactiveSourcesTesting"]),
        // For standalone scripts (Playground-scripts/run.sh): `swift -lReactiveSourcesKit`.
        .library(name: "ReactiveSourcesKit", type: .dynamic, targets: ["Signals", "ReactiveSources"]),
        .executable(name: "reactive-demo", targets: ["reactive-demo"]),
    ],
    targets: [
        // One C thread-local for Signals' per-thread state (see its header).
        .target(name: "SignalsThreadLocal"),
        .target(name: "Signals", dependencies: ["SignalsThreadLocal"], swiftSettings: strict),
        .target(name: "ReactiveSources", dependencies: ["Signals"], swiftSettings: strict),
        .target(name: "ReactiveSourcesTesting", dependencies: ["ReactiveSources"], swiftSettings: strict),
        .executableTarget(
            name: "reactive-demo",
            dependencies: ["Signals", "ReactiveSources"],
            resources: [.copy("Resources/poem.txt")],
            swiftSettings: strict
        ),
        .testTarget(name: "SignalsTests", dependencies: ["Signals", "ReactiveSourcesTesting"], swiftSettings: strict),
        .testTarget(name: "ReactiveDemoTests", dependencies: ["reactive-demo", "ReactiveSources", "ReactiveSourcesTesting"], swiftSettings: strict),
        .testTarget(
            name: "ReactiveSourcesTests",
            dependencies: ["ReactiveSources", "ReactiveSourcesTesting"],
            exclude: ["Support/fixture_server.py"],
            swiftSettings: strict
        ),
    ]
)
