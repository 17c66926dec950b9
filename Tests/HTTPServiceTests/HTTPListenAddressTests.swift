import HTTPService
import Testing

@Suite struct HTTPListenAddressTests {
    @Test func parsesTCPAndUnixForms() throws {
        #expect(try HTTPListenAddress(parsing: "tcp:127.0.0.1:8080") == .tcp(host: "127.0.0.1", port: 8080))
        #expect(try HTTPListenAddress(parsing: "tcp:[::1]:0") == .tcp(host: "::1", port: 0))
        #expect(try HTTPListenAddress(parsing: "unix:/run/p.sock") == .unix(path: "/run/p.sock"))
        #expect(HTTPListenAddress.tcp(host: "::1", port: 9).description == "tcp:[::1]:9")
    }

    @Test(arguments: ["127.0.0.1:80", "tcp:127.0.0.1", "tcp::80", "tcp:h:65536", "tcp:h:x", "unix:"])
    func refusesMalformed(_ text: String) {
        #expect(throws: HTTPServerError.self) { try HTTPListenAddress(parsing: text) }
    }
}
