import Foundation
import Testing

@testable import ProvisionCLI

/// `serve`'s hand-written tap answer: byte for byte what JSONEncoder (sorted keys, slashes unescaped) wrote for the
/// same answer before, and its log line's latency figure.
@Suite struct ServeAnswerTests {
    /// The answer as the encoder wrote it: `null` for an absent counter or job.
    struct Encoded: Encodable {
        var verdict: String
        var counter: UInt32?
        var job: String?
        var product: [String: String]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(verdict, forKey: .verdict)
            try container.encode(counter, forKey: .counter)
            try container.encode(job, forKey: .job)
            try container.encode(product, forKey: .product)
        }

        enum CodingKeys: String, CodingKey { case verdict, counter, job, product }
    }

    @Test func answerMatchesTheEncoder() throws {
        let cases: [(String, UInt32?, String?, [String: String])] = [
            ("valid", 61, "b10", ["sku": "SKU-10001", "lot": "L2612-A", "name": "Part \"1\" / ü"]),
            ("replayed", 0, "job with spaces", [:]),
            ("invalid", nil, nil, [:]),
            ("suspicious", 16_777_215, "j\\k", ["url": "https://brand.example.com/p?a=1&b=2"]),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for (verdict, counter, job, product) in cases {
            let answer = ServeAPI.Answer(verdict: verdict, counter: counter, job: job, product: product)
            let expected = try encoder.encode(
                Encoded(verdict: verdict, counter: counter, job: job, product: product))
            #expect(String(decoding: answer.json, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test func latencyHasThreeDecimals() {
        #expect(ServeAPI.milliseconds(.microseconds(12_345)) == "12.345")
        #expect(ServeAPI.milliseconds(.microseconds(7)) == "0.007")
        #expect(ServeAPI.milliseconds(.milliseconds(2)) == "2.000")
        #expect(ServeAPI.milliseconds(.nanoseconds(1_234_567)) == "1.235")
        #expect(ServeAPI.milliseconds(.zero) == "0.000")
    }
}
