import Foundation
import Provisioning
import Testing

/// The manifest's `publish` object (`run --publish` from the job itself): decoded with its paths resolved against
/// the manifest's folder, and refused with file, line and `publish.FIELD` when malformed; a literal password is
/// refused without being repeated.
@Suite struct ManifestPublishTests {
    static let head = #"{"job": "j", "template": "t", "tag": "ntag213", "records": "r.csv", "#

    static func parse(_ text: String) throws(JobInputError) -> Manifest {
        try Manifest(
            parsing: Array(text.utf8), manifestURL: URL(fileURLWithPath: "/work/line/jobs/x.json"),
            currentDirectory: URL(fileURLWithPath: "/work/line"))
    }

    @Test func aPublishObjectDecodesWithPathsResolvedAgainstTheManifestsFolder() throws {
        let manifest = try Self.parse(
            Self.head + """
                "publish": {"to": "mqtts://mes.plant:8883/line1", "credentials": "@../secrets/mqtt",
                "ca": "ca.pem", "cert": "/etc/c.pem", "key": "c.key", "required": 50, "drain": 2.5}}
                """)
        let publish = try #require(manifest.publish)
        #expect(publish.to == "mqtts://mes.plant:8883/line1")
        #expect(publish.credentials == "@/work/line/secrets/mqtt")
        #expect(publish.ca?.path == "/work/line/jobs/ca.pem" && publish.cert?.path == "/etc/c.pem")
        #expect(publish.key?.path == "/work/line/jobs/c.key")
        #expect(publish.required == 50 && publish.drain == 2.5)
        #expect(publish.positions["to"]?.line == 1 && publish.positions["drain"]?.line == 2)
        #expect(manifest.publishError("to", "bad").description.hasPrefix("jobs/x.json:1:"))
    }

    @Test func anEnvironmentVariableIsKeptAndNoPublishObjectMeansNone() throws {
        let manifest = try Self.parse(Self.head + #""publish": {"to": "mqtt://b/p", "credentials": "env:MQTT"}}"#)
        #expect(manifest.publish?.credentials == "env:MQTT" && manifest.publish?.required == nil)
        #expect(try Self.parse(Self.head + #""lock": "none"}"#).publish == nil)
    }

    @Test(arguments: [
        (#""publish": "mqtt://b/p"}"#, "jobs/x.json:1:80: publish: must be an object, found a string"),
        (#""publish": {}}"#, "jobs/x.json:1:80: publish.to: missing"),
        (#""publish": {"to": ""}}"#, "jobs/x.json:1:87: publish.to: must not be empty"),
        (#""publish": {"to": "mqtt://b/p", "url": "x"}}"#, "jobs/x.json:1:101: publish.url: unknown key"),
        (#""publish": {"to": "mqtt://b/p", "cert": "c.pem"}}"#, "jobs/x.json:1:109: publish.cert: needs publish.key"),
        (#""publish": {"to": "mqtt://b/p", "key": "c.key"}}"#, "jobs/x.json:1:108: publish.key: needs publish.cert"),
        (#""publish": {"to": "mqtt://b/p", "required": 0}}"#, "jobs/x.json:1:113: publish.required: must be a whole"),
        (#""publish": {"to": "mqtt://b/p", "drain": "10"}}"#, "jobs/x.json:1:110: publish.drain: must be a number"),
        (#""publish": {"to": "mqtt://b/p", "drain": -1}}"#, "jobs/x.json:1:110: publish.drain: must be a number"),
        (#""publish": {"to": "mqtt://b/p", "ca": 7}}"#, "jobs/x.json:1:107: publish.ca: must be a string"),
    ])
    func malformedPublishFieldsAreRefusedNamingTheField(_ tail: String, _ message: String) {
        do {
            _ = try Self.parse(Self.head + tail)
            Issue.record("no error for \(tail)")
        } catch {
            #expect(error.code == .manifestInvalid)
            #expect(error.description.hasPrefix(message), "\(error)")
        }
    }

    @Test(arguments: ["line:s3cret-pass", "@", "env:", "s3cret-pass"])
    func aLiteralPasswordIsRefusedWithoutRepeatingIt(_ value: String) {
        do {
            _ = try Self.parse(Self.head + #""publish": {"to": "mqtt://b/p", "credentials": "\#(value)"}}"#)
            Issue.record("no error for \(value)")
        } catch {
            #expect(error.description.contains("publish.credentials: must be @FILE or env:VAR"), "\(error)")
            #expect(!error.description.contains("s3cret"))
        }
    }
}
