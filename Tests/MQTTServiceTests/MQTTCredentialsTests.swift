import Foundation
import MQTTService
import TestSupport
import Testing

@Suite struct MQTTCredentialsTests {
    private func file(_ text: String, mode: mode_t) throws -> String {
        let folder = try Fixtures.temporaryDirectory("mqtt-credentials")
        chmod(folder.path, 0o700)
        let path = folder.appendingPathComponent("broker.credentials").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, mode)
        return path
    }

    @Test func readsOneLineFromAnOwnerOnlyFile() throws {
        let credentials = try MQTTCredentials(source: "@" + file("station-3:pa:ss word\n", mode: 0o600))
        #expect(credentials.user == "station-3")
        #expect(credentials.password == "pa:ss word")
    }

    @Test func readsTheEnvironment() throws {
        let credentials = try MQTTCredentials(source: "env:BROKER", environment: ["BROKER": "u:p"])
        #expect(credentials == MQTTCredentials(user: "u", password: "p"))
        let unset = #expect(throws: MQTTError.self) { try MQTTCredentials(source: "env:NOPE", environment: [:]) }
        #expect(unset?.code == .credentialsMissing)
    }

    @Test func refusesAFileOthersCanRead() throws {
        let path = try file("u:secret-pw\n", mode: 0o644)
        let error = #expect(throws: MQTTError.self) { try MQTTCredentials(source: "@" + path) }
        #expect(error?.code == .credentialsUnsafe)
        #expect(error?.message.contains("chmod 600") == true)
        #expect(error?.description.contains("secret-pw") == false)
    }

    @Test func refusesAMissingFile() {
        let error = #expect(throws: MQTTError.self) { try MQTTCredentials(source: "@/nonexistent/broker.cred") }
        #expect(error?.code == .credentialsMissing)
    }

    @Test(arguments: ["nocolon-secret", ":pw-secret", "user-secret:", "u:p-secret\nsecond:line", ""])
    func refusesMalformedContentWithoutEchoingIt(_ text: String) throws {
        let error = #expect(throws: MQTTError.self) {
            try MQTTCredentials(source: "env:C", environment: ["C": text.isEmpty ? "x" : text])
        }
        #expect(error?.code == .credentialsMalformed)
        if !text.isEmpty { #expect(error?.description.contains(text) == false) }
    }

    @Test func refusesALiteralValue() {
        let error = #expect(throws: MQTTError.self) { try MQTTCredentials(source: "station:hunter2") }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test func neverShowsThePassword() {
        let credentials = MQTTCredentials(user: "station", password: "hunter2")
        #expect("\(credentials)" == "station:***")
        #expect(String(reflecting: credentials) == "station:***")
        var dumped = ""
        dump(credentials, to: &dumped)
        #expect(!dumped.contains("hunter2"))
        let options = MQTTConnectOptions(clientID: "c", credentials: credentials)
        #expect(!String(describing: options).contains("hunter2"))
    }
}
