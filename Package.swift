// swift-tools-version:6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "provision",
    products: [
        .executable(name: "provision", targets: ["provision"]),
        .library(name: "ProvisionCLI", targets: ["ProvisionCLI"]),
    ],
    targets: [
        // C libraries: module map + shim header only.
        .systemLibrary(name: "CNFC", pkgConfig: "libnfc", providers: [.apt(["libnfc-dev"])]),
        .systemLibrary(name: "CPCSC", pkgConfig: "libpcsclite", providers: [.apt(["libpcsclite-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // The PKCS #11 header only (p11-kit's copy): modules are loaded with dlopen, never linked.
        .systemLibrary(name: "CPKCS11", pkgConfig: "p11-kit-1", providers: [.apt(["libp11-kit-dev"])]),
        // prctl and explicit_bzero from the C library itself (process hardening, key wiping): nothing to link.
        .systemLibrary(name: "CSystem"),
        // libmicrohttpd for the HTTP service (`provision serve`); the shim passes options as MHD_OPTION_ARRAY.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // libmosquitto for publishing tag events to an MQTT broker (issue 45).
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // The version `make deb` stamps into a build (-Xcc -DPROVISION_BUILD_VERSION=…), else a fallback.
        .systemLibrary(name: "CBuildInfo"),

        // Helpers every layer shares (serial executor, Duration conversion): one of each.
        .target(name: "Support", dependencies: ["CSystem"], swiftSettings: strict),

        // Core: pure Swift, no I/O.
        // The one position-reporting JSON reader (record JSON, manifests, templates, JSON Lines).
        .target(name: "JSONReader", swiftSettings: strict),
        .target(name: "NDEF", dependencies: ["JSONReader", "Support"], swiftSettings: strict),
        .target(name: "NFCTags", dependencies: ["JSONReader", "NDEF", "Crypto", "Support"], swiftSettings: strict),
        .target(name: "Crypto", dependencies: ["CCrypto", "Support"], swiftSettings: strict),

        // Emulator: depends on core only (and libcrypto for signing).
        .target(name: "TagEmulator", dependencies: ["NFCTags", "Crypto", "Support"], swiftSettings: strict),

        // Backends: one C library each.
        .target(name: "ReaderLibNFC", dependencies: ["NFCTags", "CNFC", "Support"], swiftSettings: strict),
        .target(name: "ReaderPCSC", dependencies: ["NFCTags", "CPCSC", "Support"], swiftSettings: strict),
        .target(
            name: "Ledger", dependencies: ["CSQLite", "CPostgres", "JSONReader", "Support"], swiftSettings: strict),
        // Keys inside a PKCS #11 token (issue 42): derivations run in the token, the master never leaves it.
        .target(name: "TokenKeys", dependencies: ["CPKCS11", "Crypto", "Support"], swiftSettings: strict),
        // HTTP on libmicrohttpd: listen, limits (size, rate), request and response values; knows no route.
        .target(name: "HTTPService", dependencies: ["CMicroHTTPD", "Support"], swiftSettings: strict),
        // MQTT on libmosquitto: endpoint, credentials, a QoS 1 client whose publishes complete at PUBACK.
        .target(name: "MQTTService", dependencies: ["CMosquitto", "Support"], swiftSettings: strict),

        // Application layers.
        .target(
            name: "Provisioning",
            dependencies: ["JSONReader", "NDEF", "NFCTags", "Ledger", "Crypto", "TokenKeys", "Support"],
            swiftSettings: strict),
        .target(name: "Reports", dependencies: ["NFCTags", "Provisioning", "Ledger"], swiftSettings: strict),
        // Publishing the outbox to an MQTT broker (issue 45): one job's events at QoS 1, marked after their PUBACK.
        .target(name: "Publishing", dependencies: ["Ledger", "MQTTService", "Support"], swiftSettings: strict),
        .target(
            name: "ProvisionCLI",
            dependencies: [
                "NDEF", "NFCTags", "TagEmulator", "ReaderLibNFC", "ReaderPCSC", "Ledger", "Provisioning",
                "Reports", "Crypto", "TokenKeys", "Support", "HTTPService", "CBuildInfo", "Publishing", "MQTTService",
            ],
            swiftSettings: strict),
        .executableTarget(name: "provision", dependencies: ["ProvisionCLI"], swiftSettings: strict),
        // `provision` with the test families registered (TestSupport's keyed memory family and its `kmem:` reader),
        // for the end-to-end and kill tests; not a product, and `provision` itself never links TestSupport.
        .executableTarget(
            name: "provision-testfamilies", dependencies: ["ProvisionCLI", "TestSupport", "NFCTags"],
            swiftSettings: strict),
        // B1's ledger-alone bound (scripts/bench): the line's ledger calls with no tag.
        .executableTarget(name: "ledger-bench", dependencies: ["Ledger", "Support"], swiftSettings: strict),
        // A client with a last will that the MQTT tests SIGKILL (an abnormal end); not a product.
        .executableTarget(name: "mqtt-probe", dependencies: ["MQTTService"], swiftSettings: strict),

        // Shared test helpers: scripted transceiver, hex helpers, CLI runner.
        .target(
            name: "TestSupport",
            dependencies: [
                "NDEF", "NFCTags", "TagEmulator", "Ledger", "JSONReader", "Crypto", "TokenKeys", "Support",
            ],
            swiftSettings: strict),

        .testTarget(name: "SupportTests", dependencies: ["Support"], swiftSettings: strict),
        .testTarget(name: "TestSupportTests", dependencies: ["TestSupport", "NFCTags"], swiftSettings: strict),
        .testTarget(name: "JSONReaderTests", dependencies: ["JSONReader"], swiftSettings: strict),
        .testTarget(name: "NDEFTests", dependencies: ["NDEF", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "NFCTagsTests", dependencies: ["NFCTags", "Crypto", "TagEmulator", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "TagEmulatorTests", dependencies: ["TagEmulator", "NFCTags", "Crypto", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ReaderLibNFCTests", dependencies: ["ReaderLibNFC", "TagEmulator", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "ReaderPCSCTests", dependencies: ["ReaderPCSC", "TagEmulator", "TestSupport"],
            swiftSettings: strict),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "NDEF", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "LedgerTests", dependencies: ["Ledger", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "HTTPServiceTests", dependencies: ["HTTPService", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "MQTTServiceTests", dependencies: ["MQTTService", "mqtt-probe", "TestSupport", "Support"],
            swiftSettings: strict),
        .testTarget(
            name: "PublishingTests", dependencies: ["Publishing", "TestSupport", "Ledger", "MQTTService"],
            swiftSettings: strict),
        .testTarget(
            name: "TokenKeysTests", dependencies: ["TokenKeys", "Crypto", "NDEF", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "LedgerBenchTests", dependencies: ["ledger-bench", "Ledger", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ProvisioningTests",
            dependencies: ["Provisioning", "JSONReader", "TagEmulator", "Crypto", "TestSupport"],
            swiftSettings: strict),
        .testTarget(name: "ReportsTests", dependencies: ["Reports", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "ProvisionCLITests",
            dependencies: [
                "ProvisionCLI", "provision", "provision-testfamilies", "TestSupport", "NDEF", "NFCTags", "Crypto",
                "ReaderPCSC", "TagEmulator",
            ],
            swiftSettings: strict),
    ]
)
