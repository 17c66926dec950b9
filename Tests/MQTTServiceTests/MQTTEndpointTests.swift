import MQTTService
import Testing

@Suite struct MQTTEndpointTests {
    @Test func parsesSchemesPortsAndPrefixes() throws {
        let plain = try MQTTEndpoint(parsing: "mqtt://broker.plant.example/provision/line1")
        #expect(plain.host == "broker.plant.example")
        #expect(plain.port == 1883)
        #expect(!plain.usesTLS)
        #expect(plain.topicPrefix == "provision/line1")
        #expect(plain.topic("J-1", "st03", "tag") == "provision/line1/J-1/st03/tag")
        let tls = try MQTTEndpoint(parsing: "mqtts://10.0.0.5/p")
        #expect(tls.port == 8883 && tls.usesTLS && tls.host == "10.0.0.5")
        let ported = try MQTTEndpoint(parsing: "mqtt://localhost:1999/p")
        #expect(ported.port == 1999)
        #expect(ported.description == "mqtt://localhost:1999/p")
    }

    @Test func parsesIPv6Literals() throws {
        let bare = try MQTTEndpoint(parsing: "mqtt://[::1]/p")
        #expect(bare.host == "::1" && bare.port == 1883)
        let ported = try MQTTEndpoint(parsing: "mqtts://[fd00::5:1]:8884/plant/a")
        #expect(ported.host == "fd00::5:1" && ported.port == 8884 && ported.topicPrefix == "plant/a")
        #expect(ported.description == "mqtts://[fd00::5:1]:8884/plant/a")
    }

    @Test(arguments: [
        ("http://h/p", "scheme 'http'"),
        ("broker:1883/p", "scheme 'broker'"),
        ("mqtt://h", "no /TOPIC-PREFIX"),
        ("mqtt://h/", "empty topic prefix"),
        ("mqtt:///p", "no host"),
        ("mqtt://h:0/p", "port '0'"),
        ("mqtt://h:65536/p", "port '65536'"),
        ("mqtt://h:x/p", "port 'x'"),
        ("mqtt://h:/p", "port ''"),
        ("mqtt://bad_host/p", "host 'bad_host'"),
        ("mqtt://[::1/p", "no closing ']'"),
        ("mqtt://[zz]/p", "'[zz]' is not an IPv6 address"),
        ("mqtt://[::1]x/p", "after the IPv6 host"),
        ("mqtt://h/a/#", "wildcard"),
        ("mqtt://h/a/+/b", "wildcard"),
        ("mqtt://h/a?x=1", "query"),
        ("mqtt://h/a/", "empty topic level"),
        ("mqtt://h/a//b", "empty topic level"),
        ("mqtt://h/$SYS", "reserved"),
    ])
    func refusesMalformedNamingThePart(_ text: String, _ named: String) {
        let error = #expect(throws: MQTTError.self) { try MQTTEndpoint(parsing: text) }
        #expect(error?.code == .invalidEndpoint)
        #expect(error?.message.contains(named) == true, "\(error?.message ?? "")")
    }

    @Test func refusesUserInformationWithoutEchoingIt() {
        let error = #expect(throws: MQTTError.self) { try MQTTEndpoint(parsing: "mqtt://station:s3cret-pw@h/p") }
        #expect(error?.message.contains("user information") == true)
        #expect(error?.description.contains("s3cret-pw") == false)
        #expect(error?.description.contains("station") == false)
    }
}
