// swift-tools-version:6.0
// Nodwire: head gestures to GPIO on a Raspberry Pi. Layers, lowest first:
// CDlibFace (C++ shim over dlib), CLibcamera (C++ shim over libcamera) -> Pipeline -> Gestures (pure) -> Appliance (the `nodwire` executable).
import PackageDescription

let package = Package(
    name: "Nodwire",
    products: [
        .executable(name: "nodwire", targets: ["Appliance"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The setup page's HTTP server ([web] in the config).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.0.0"),
    ],
    targets: [
        .target(
            name: "CDlibFace",
            cxxSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("blas"), .linkedLibrary("lapack"), .linkedLibrary("stdc++")]
        ),
        // Only carries `pkg-config libcamera` (include path and libraries) to CLibcamera and its users.
        .systemLibrary(name: "LibcameraPkgConfig", pkgConfig: "libcamera", providers: [.apt(["libcamera-dev"])]),
        .target(name: "CLibcamera", dependencies: ["LibcameraPkgConfig"], linkerSettings: [.linkedLibrary("stdc++")]),
        .target(name: "Pipeline", dependencies: ["CDlibFace", "CLibcamera"]),
        .target(name: "CGPIOD", linkerSettings: [.linkedLibrary("gpiod")]),
        .target(name: "Gestures"),
        // libmosquitto, the MQTT client ([mqtt] in the config): headers and library from `pkg-config libmosquitto`.
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // Frees what TOMLKit 0.6.0's toml++ parses (it has no function for that): see Config/TOMLDocument.swift.
        .target(name: "CTOMLRelease"),
        // libjpeg-turbo's TurboJPEG, the setup page's live picture: `pkg-config libturbojpeg`.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .executableTarget(
            name: "Appliance",
            dependencies: [
                "Pipeline", "Gestures", "CGPIOD", "CMosquitto", "CTOMLRelease", "CTurboJPEG",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "TOMLKit", package: "TOMLKit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "NodwireBench",
            dependencies: ["Pipeline", .product(name: "MallocInterposerSwift", package: "malloc-interposer")],
            path: "Benchmarks/NodwireBench"
        ),
        .testTarget(name: "PipelineTests", dependencies: ["Pipeline"], exclude: []),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures"]),
        .testTarget(name: "ApplianceTests", dependencies: ["Appliance", "Pipeline", "Gestures"]),
    ],
    cxxLanguageStandard: .cxx17
)
