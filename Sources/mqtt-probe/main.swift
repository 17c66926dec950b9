import Foundation
import MQTTService

// A client with a last will, for the MQTT tests: `mqtt-probe URL CLIENT-ID WILL-TOPIC WILL-PAYLOAD` connects with a
// retained QoS 1 will, prints "connected" and waits until it is killed. A SIGKILL ends it without DISCONNECT, the
// abnormal end after which the broker publishes the will.
let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: mqtt-probe URL CLIENT-ID WILL-TOPIC WILL-PAYLOAD\n".utf8))
    exit(64)
}
do {
    let endpoint = try MQTTEndpoint(parsing: arguments[1])
    let will = MQTTWill(topic: arguments[3], payload: Array(arguments[4].utf8), retain: true)
    let client = MQTTClient(endpoint: endpoint, options: MQTTConnectOptions(clientID: arguments[2], will: will))
    try await client.connect()
    FileHandle.standardOutput.write(Data("connected\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
} catch {
    FileHandle.standardError.write(Data("mqtt-probe: \(error)\n".utf8))
    exit(69)
}
