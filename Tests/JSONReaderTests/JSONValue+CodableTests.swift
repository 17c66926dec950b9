import Foundation
import JSONReader
import Testing

@Test func codableRoundTripKeepsIntegersAndNesting() throws {
    let value = JSONValue.object([
        "n": .integer(7), "x": .number(0.5), "s": .string("é"), "l": .array([.null, .bool(true)]),
    ])
    let copy = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
    #expect(copy == value)
}
