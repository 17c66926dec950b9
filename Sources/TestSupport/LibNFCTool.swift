import Foundation

/// Runs a stock libnfc tool with quiet logging and returns (status, stdout).
public func runTool(_ tool: String, _ arguments: [String], connstring: String) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["LIBNFC_LOG_LEVEL"] = "0"
    environment["LIBNFC_DEVICE"] = connstring
    environment["LIBNFC_AUTO_SCAN"] = "false"
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
