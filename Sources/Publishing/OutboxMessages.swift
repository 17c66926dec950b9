import Foundation
import Ledger
import MQTTService
import Support

/// The MQTT messages of a publisher (docs/events.md, "Publishing"): one a tag event, and the station's retained
/// status.
enum OutboxMessages {
    /// Event `event` on `topic` (its `eventTopic`, which a batch of one job and station reuses), its payload with the
    /// event's `id` added as the first key, at QoS 1.
    static func event(_ event: OutboxEvent, topic: String) -> MQTTMessage {
        MQTTMessage(topic: topic, payload: payload(event), qos: .atLeastOnce)
    }

    /// `PREFIX/JOB/STATION/tag` of `event`: the event's own job and station, `job` and `station` for one that names
    /// none.
    static func eventTopic(_ event: OutboxEvent, endpoint: MQTTEndpoint, job: String, station: String) -> String {
        endpoint.topic(level(event.job ?? job), level(event.station ?? station), "tag")
    }

    /// The stored payload with `"id":"…"` inserted first, so consumers dedupe by it; a payload that is not an object
    /// (never written by the ledger) is wrapped as `{"id":…,"payload":…}`.
    static func payload(_ event: OutboxEvent) -> [UInt8] {
        var out = Array(#"{"id":"#.utf8)
        JSONString.append(event.id, to: &out)
        let body = event.payload.drop(while: \.isWhitespace)
        guard body.first == "{" else {
            out += Array(#","payload":"#.utf8) + Array(event.payload.utf8) + [UInt8(ascii: "}")]
            return out
        }
        let rest = body.dropFirst()
        if rest.drop(while: \.isWhitespace).first != "}" { out.append(UInt8(ascii: ",")) }
        out += Array(rest.utf8)
        return out
    }

    /// The retained status on `PREFIX/STATION/status`: `{"state", "station", "job", …details, "since"}` (keys
    /// sorted; `since` left out when `nil`, as in the last will, whose time the broker alone knows).
    static func status(
        online: Bool, endpoint: MQTTEndpoint, station: String, job: String, details: [String: String], since: Date?
    ) -> MQTTMessage {
        var object = details
        object["state"] = online ? "online" : "offline"
        object["station"] = station
        object["job"] = job
        if let since { object["since"] = OutboxEvent.timestamp(since) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let bytes = (try? encoder.encode(object)).map(Array.init) ?? Array("{\"state\":\"offline\"}".utf8)
        return MQTTMessage(topic: statusTopic(endpoint, station: station), payload: bytes, retain: true)
    }

    /// `PREFIX/STATION/status`.
    static func statusTopic(_ endpoint: MQTTEndpoint, station: String) -> String {
        endpoint.topic(level(station), "status")
    }

    /// `text` as one topic level: `/`, `+`, `#` and control characters become `_` (an empty text `_`).
    static func level(_ text: String) -> String {
        let scalars = text.unicodeScalars.map { scalar -> Character in
            "/+#".unicodeScalars.contains(scalar) || scalar.value < 0x20 || scalar.value == 0x7F
                ? "_" : Character(scalar)
        }
        return scalars.isEmpty ? "_" : String(scalars)
    }
}
