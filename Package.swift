// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "scand",
    products: [
        .executable(name: "scand", targets: ["scand"]),
        .executable(name: "scand-bench", targets: ["scand-bench"]),
        .executable(name: "scand-decoder", targets: ["scand-decoder"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.60.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.24.0"),
        // Without its default ConfigurationSupport trait: scand reads its own settings, and swift-configuration
        // would be one more package to build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0")
    ],
    targets: [
        // Native libraries, found through pkg-config: zxing-cpp 3.1.1 built from source by
        // scripts/install-zxing (static, in /usr/local); the others installed from Debian.
        .systemLibrary(name: "CZXing", pkgConfig: "zxing"),
        .systemLibrary(name: "CSTB", pkgConfig: "stb", providers: [.apt(["libstb-dev"])]),
        .systemLibrary(name: "CV4L2", pkgConfig: "libv4l2", providers: [.apt(["libv4l-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(name: "CZBar", pkgConfig: "zbar", providers: [.apt(["libzbar-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // libjpeg-turbo's TurboJPEG: MJPEG frames to grey; libv4lconvert only for `scand bench mjpeg`'s comparison.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CV4LConvert", pkgConfig: "libv4lconvert", providers: [.apt(["libv4l-dev"])]),
        // WebP and TIFF stills for `scand scan` (what zbarimg reads beside stb_image's formats), decoded in
        // scand-decoder's sandbox only.
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        // The only C++ in the package: a C API over zxing-cpp with process isolation.
        // It also runs stb_image, libwebp and libtiff, in the same sandboxed processes: image files are hostile input too.
        // libm: the Swift runtime brings it into Swift executables, not into scand-decoder.
        .target(name: "ScandZXingShim", dependencies: ["CZXing", "CSTB", "CWebP", "CTIFF"], linkerSettings: [.linkedLibrary("m")]),
        // The sandboxed decoder process every isolated read runs in, started with posix_spawn from beside
        // the running executable (or ../libexec/scand): a small C++ program over the shim, no Swift runtime.
        .executableTarget(name: "scand-decoder", dependencies: ["ScandZXingShim"]),
        // stb_easy_font is header-only with static functions; this C target compiles it once.
        .target(name: "ScandImageShim", dependencies: ["CSTB"]),
        // libv4l2's calls are variadic: fixed-argument wrappers and the VIDIOC_* codes for Swift.
        .target(name: "ScandV4L2Shim", dependencies: ["CV4L2"]),
        // /dev/uinput's UI_* requests are ioctl macros and input_event's layout is the C library's: a virtual keyboard in C.
        .target(name: "ScandUInputShim"),

        // Pure Swift, no I/O: formats, geometry, detections, the JSON of events.
        .target(name: "ScandCore"),
        // What a code's content means (GS1, product numbers, URLs, Wi-Fi, contacts, licences…): parsers, no I/O.
        .target(name: "ScandPayload", dependencies: ["ScandCore"]),
        // The socket protocol, both ways: requests, events and answers, each with one encoder and one decoder.
        .target(name: "ScandProtocol", dependencies: ["ScandCore", "ScandPayload"]),
        // Small files replaced whole or not at all (state files, the kept rect of interest).
        .target(name: "ScandFiles"),
        // The one log handler: every Logger of the daemon and its commands writes scand's lines through it.
        .target(name: "ScandLogging", dependencies: ["ScandCore", .product(name: "Logging", package: "swift-log")]),
        // The configuration file: TOML 1.0 read by TOMLKit (over toml++), applied through ScandCore's settings table.
        .target(name: "ScandConfigFile", dependencies: ["ScandCore", .product(name: "TOMLKit", package: "TOMLKit")]),
        // A second look at a linear read in the frame's own pixels: its bar pattern (EAN/UPC), add-on bars
        // beside it, a UPC-E's quiet zone. Pure Swift over ScandCore; the decoders hold their reads against it.
        .target(name: "ScandBarPattern", dependencies: ["ScandCore"]),
        .target(
            name: "ScandDecoding",
            dependencies: [
                "ScandCore", "ScandBarPattern", "ScandZXingShim",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]),
        // What every module may use at run time: an event loop of one's own as an actor's executor, the monotonic clock.
        .target(
            name: "ScandRuntime",
            dependencies: [.product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")]),
        .target(name: "ScandImageIO", dependencies: ["ScandCore", "ScandFiles", "CSTB", "ScandImageShim", "ScandZXingShim"]),
        .target(
            name: "ScandCapture",
            dependencies: [
                "ScandCore", "ScandProtocol", "ScandRuntime", "ScandV4L2Shim", "CTurboJPEG",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]),
        // The tracker: which reads of which frames are one code, when it is SCAN, UPDATE and LOST.
        .target(name: "ScandTracking", dependencies: ["ScandCore", "ScandProtocol"]),
        // The daemon's event journal: append-only SQLite (WAL) in its state directory.
        .target(
            name: "ScandJournal",
            dependencies: [
                "ScandProtocol", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]),
        // The daemon's events after the pipeline: numbered, journaled (ScandJournal), published in order by one runtime.
        .target(
            name: "ScandEventLog",
            dependencies: [
                "ScandCore", "ScandProtocol", "ScandJournal", "ScandLogging", "ScandRuntime",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]),
        // The live frame path: capture, decoding, tracking and the events of what was scanned; the pipeline's
        // metrics, its preview, and the rect of interest and camera controls set over the socket.
        .target(
            name: "ScandPipeline",
            dependencies: [
                "ScandCore", "ScandProtocol", "ScandCapture", "ScandDecoding", "ScandImageIO", "ScandTracking", "ScandFiles", "ScandConfigFile",
                "ScandLogging", "ScandRuntime",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus")
            ]),
        // The daemon's socket: the server, its clients' requests and subscriptions, the hub that hands events to them.
        .target(
            name: "ScandSocket",
            dependencies: [
                "ScandCore", "ScandProtocol", "ScandDecoding", "ScandEventLog", "ScandJournal", "ScandFiles", "ScandLogging", "ScandRuntime",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]),
        // `scand mqtt`: an MQTT client over libmosquitto, the bridge's state machine and its service, a client of
        // the daemon's socket.
        .target(
            name: "ScandMQTT",
            dependencies: [
                "CMosquitto", "ScandCore", "ScandProtocol", "ScandClient", "ScandLogging", "ScandRuntime",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]),
        .target(
            name: "ScandService",
            dependencies: [
                "ScandCore", "ScandProtocol", "ScandCapture", "ScandLogging", "ScandRuntime", "ScandEventLog", "ScandSocket", "ScandPipeline",
                "ScandTracking", "CSystemd",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log")
            ]),
        // The one client of the daemon's socket: typed requests over a kept connection, and subscriptions.
        .target(
            name: "ScandClient",
            dependencies: [
                "ScandCore", "ScandProtocol", "ScandFiles",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOExtras", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]),
        // `scand web`: the setup page and /metrics over HTTP, a client of the daemon's Unix socket only.
        .target(
            name: "ScandWeb",
            dependencies: [
                "ScandCore", "ScandProtocol", "ScandClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log")
            ],
            resources: [
                // The page's files, compiled into the binary: the package ships no asset directory.
                .embedInCode("Assets/index.html"), .embedInCode("Assets/app.js"), .embedInCode("Assets/style.css")
            ]),
        // `scand wedge`: the keyboard wedge, a client of the daemon's socket that types each SCAN on a uinput keyboard.
        .target(
            name: "ScandWedge",
            dependencies: [
                "ScandCore", "ScandPayload", "ScandProtocol", "ScandClient", "ScandUInputShim",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log")
            ]),
        .target(
            name: "ScandCommands",
            dependencies: [
                "ScandCapture", "ScandService", "ScandSocket", "ScandPipeline", "ScandMQTT", "ScandWeb", "ScandWedge",
                "ScandCore", "ScandProtocol", "ScandClient", "ScandConfigFile", "ScandDecoding", "ScandImageIO", "ScandFiles",
                "ScandLogging", "ScandRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log")
            ]),
        .executableTarget(name: "scand", dependencies: ["ScandCommands"]),
        // The benchmarks' generated input, seeded: the till's items, labels and sessions, a cluttered counter,
        // packaging photos.
        .target(name: "ScandBenchScenes", dependencies: ["ScandCore", "ScandCapture", "ScandDecoding"]),
        // The benchmarks, in an executable of their own (`scand bench` runs it): libzbar stays out of the daemon.
        .target(
            name: "ScandBench",
            dependencies: [
                "ScandBenchScenes", "ScandCapture", "ScandPipeline", "ScandTracking", "ScandJournal", "ScandEventLog", "CZBar", "CV4LConvert",
                "ScandCore", "ScandProtocol", "ScandDecoding", "ScandImageIO", "ScandRuntime", "ScandSocketBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]),
        // `scand bench socket`'s measurement: a scand executable run as a black box, fed frames through a FIFO,
        // with WATCH clients on its socket.
        .target(name: "ScandSocketBench", dependencies: ["ScandRuntime"]),
        .executableTarget(name: "scand-bench", dependencies: ["ScandBench"]),

        // Generated scenes and recordings, the built binaries, and a real mosquitto broker on loopback
        // owned by the test (with certificates and a subscriber), for the test targets only.
        .target(
            name: "ScandTestSupport",
            dependencies: [
                "ScandCore", "ScandProtocol", "ScandDecoding", "ScandCapture", "ScandSocket", "ScandRuntime",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ],
            path: "Tests/ScandTestSupport"),

        .testTarget(name: "ScandCoreTests", dependencies: ["ScandCore", "ScandConfigFile"]),
        .testTarget(name: "ScandProtocolTests", dependencies: ["ScandProtocol", "ScandCore", "ScandTestSupport"]),
        .testTarget(name: "ScandPayloadTests", dependencies: ["ScandPayload", "ScandProtocol", "ScandCore", "ScandTestSupport"]),
        .testTarget(name: "ScandWedgeTests", dependencies: ["ScandWedge", "ScandCore", "ScandProtocol", "ScandTestSupport"]),
        .testTarget(
            name: "ScandClientTests",
            dependencies: [
                "ScandClient", "ScandProtocol", "ScandSocket", "ScandCore", "ScandTestSupport", "ScandLogging",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
            ]),
        .testTarget(name: "ScandDecodingTests", dependencies: ["ScandDecoding", "ScandBarPattern", "ScandCore", "ScandPayload", "ScandTestSupport"]),
        .testTarget(name: "ScandBarPatternTests", dependencies: ["ScandBarPattern", "ScandDecoding", "ScandCore", "ScandTestSupport"]),
        .testTarget(
            name: "ScandCaptureTests",
            dependencies: [
                "ScandCapture", "ScandRuntime", "ScandCore", "ScandProtocol", "ScandConfigFile", "ScandTestSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]),
        .testTarget(
            name: "ScandEventLogTests",
            dependencies: [
                "ScandEventLog", "ScandJournal", "ScandRuntime", "ScandCore", "ScandProtocol", "ScandLogging", "ScandTestSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]),
        .testTarget(
            name: "ScandSocketTests",
            dependencies: [
                "ScandSocket", "ScandCore", "ScandProtocol", "ScandEventLog", "ScandJournal", "ScandTestSupport", "ScandLogging",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]),
        .testTarget(
            name: "ScandPipelineTests",
            dependencies: [
                "ScandPipeline", "ScandCapture", "ScandDecoding", "ScandRuntime", "ScandCore", "ScandProtocol", "ScandTestSupport", "ScandLogging",
                "ScandTracking",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]),
        .testTarget(name: "ScandTrackingTests", dependencies: ["ScandTracking", "ScandCore", "ScandConfigFile"]),
        .testTarget(name: "ScandRuntimeTests", dependencies: ["ScandRuntime", "ScandTestSupport"]),
        .testTarget(
            name: "ScandServiceTests",
            dependencies: [
                "ScandService", "ScandPipeline", "ScandCapture", "ScandCore", "ScandProtocol", "ScandTestSupport",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]),
        .testTarget(name: "ScandImageIOTests", dependencies: ["ScandImageIO", "ScandCore", "CSTB", "CWebP", "ScandTestSupport"]),
        .testTarget(name: "ScandJournalTests", dependencies: ["ScandJournal", "ScandCore", "ScandProtocol", "ScandTestSupport"]),
        .testTarget(name: "ScandFilesTests", dependencies: ["ScandFiles", "ScandTestSupport"]),
        .testTarget(
            name: "ScandLoggingTests",
            dependencies: [
                "ScandLogging", .product(name: "Logging", package: "swift-log"), .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]),
        .testTarget(name: "ScandMQTTTests", dependencies: ["ScandMQTT", "ScandCore", "ScandProtocol", "ScandTestSupport"]),
        .testTarget(
            name: "ScandCommandsTests",
            dependencies: [
                "ScandCommands", "ScandClient", "ScandProtocol", "ScandMQTT", "ScandWedge", "ScandWeb", "ScandConfigFile", "ScandDecoding",
                "ScandImageIO", "ScandService", "ScandTracking",
                "ScandCore", "CSTB",
                "ScandTestSupport", "scand"
            ]),
        .testTarget(
            name: "ScandWebTests",
            dependencies: [
                "ScandWeb", "ScandCore", "ScandProtocol", "ScandClient", "ScandTestSupport", "ScandConfigFile",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ]),
        .testTarget(
            name: "ScandBenchTests",
            dependencies: ["ScandBench", "ScandSocketBench", "ScandDecoding", "ScandCore", "ScandTestSupport", "scand", "scand-bench"]),
        .testTarget(name: "ScandBenchScenesTests", dependencies: ["ScandBenchScenes", "ScandBench", "ScandDecoding", "ScandCore", "ScandTestSupport"])
    ],
    cxxLanguageStandard: .cxx17
)

// libFuzzer targets (scripts/fuzz, docs/fuzzing.md), declared only when SCAND_FUZZ=1: built with
// -sanitize=fuzzer, whose runtime holds the driver their main hands over to; in any other build they would not link.
if Context.environment["SCAND_FUZZ"] == "1" {
    let nio: [Target.Dependency] = [.product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio")]
    package.targets += [
        // Seeds written on request, properties that crash when broken, the scratch file of path readers.
        .target(name: "CLibFuzzer", path: "Sources/Fuzz/CLibFuzzer"),
        .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Sources/Fuzz/FuzzSupport"),
        .executableTarget(
            name: "fuzz-socket-request", dependencies: ["FuzzSupport", "ScandProtocol", "ScandSocket"] + nio, path: "Sources/Fuzz/SocketRequest"),
        .executableTarget(
            name: "fuzz-event-position", dependencies: ["FuzzSupport", "ScandCore", "ScandProtocol", "ScandWeb"], path: "Sources/Fuzz/EventPosition"),
        .executableTarget(name: "fuzz-recording", dependencies: ["FuzzSupport", "ScandCore", "ScandCapture"], path: "Sources/Fuzz/Recording"),
        .executableTarget(
            name: "fuzz-config-file", dependencies: ["FuzzSupport", "ScandCore", "ScandConfigFile", "ScandCommands"], path: "Sources/Fuzz/ConfigFile"),
        .executableTarget(
            name: "fuzz-http-first-request",
            dependencies: [
                "FuzzSupport", "ScandWeb", .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio")
            ] + nio, path: "Sources/Fuzz/HTTPFirstRequest"),
        .executableTarget(name: "fuzz-image", dependencies: ["FuzzSupport", "ScandCore", "ScandImageIO"], path: "Sources/Fuzz/Image"),
        .executableTarget(name: "fuzz-digital-link", dependencies: ["FuzzSupport", "ScandCore", "ScandPayload"], path: "Sources/Fuzz/DigitalLink"),
        .executableTarget(
            name: "fuzz-published-seq", dependencies: ["FuzzSupport", "ScandJournal", "ScandEventLog"], path: "Sources/Fuzz/PublishedSeq"),
        .executableTarget(name: "fuzz-topic-prefix", dependencies: ["FuzzSupport", "ScandMQTT"], path: "Sources/Fuzz/TopicPrefix")
    ]
}
