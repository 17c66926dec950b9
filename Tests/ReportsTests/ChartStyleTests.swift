import Foundation
import Reports
import Testing

@Test(arguments: [
    (7.0, [0.0, 2, 4, 6, 8]), (100.0, [0.0, 20, 40, 60, 80, 100]), (1.0, [0.0, 0.2, 0.4, 0.6, 0.8, 1]),
    (0.0, [0.0, 1]), (43.0, [0.0, 10, 20, 30, 40, 50]),
])
func ticksAreRoundAndCoverTheMaximum(maximum: Double, expected: [Double]) {
    let ticks = ChartStyle.ticks(upTo: maximum)
    #expect(ticks.count == expected.count)
    for (tick, want) in zip(ticks, expected) { #expect(abs(tick - want) < 1e-9) }
    #expect((ticks.last ?? 0) >= maximum)
}

@Test func decadesSpanTheRange() {
    #expect(ChartStyle.decades(from: 0.3, to: 2500) == [0.1, 1, 10, 100, 1000, 10000])
    #expect(ChartStyle.decades(from: 10, to: 10) == [10, 100])
}

@Test func fillsAreGrayOrPatternsAndCycle() {
    let fills = (0..<ChartStyle.fillCount).map { ChartStyle.fill($0, prefix: "p") }
    #expect(Set(fills).count == ChartStyle.fillCount)
    for fill in fills {
        if fill.hasPrefix("url(") {
            #expect(fill.hasPrefix("url(#p-"))
        } else {
            // Gray: equal red, green and blue digits.
            let hex = Array(fill.dropFirst())
            #expect(hex.count == 6 && hex[0...1] == hex[2...3] && hex[2...3] == hex[4...5])
        }
    }
    #expect(ChartStyle.fill(ChartStyle.fillCount, prefix: "p") == fills[0])
    let defs = XMLInspector.parse(ChartStyle.patterns(prefix: "p").render())
    #expect(defs.error == nil)
    let ids = Set(defs.elements("pattern").compactMap { $0.attributes["id"] })
    for fill in fills where fill.hasPrefix("url(#") {
        #expect(ids.contains(String(fill.dropFirst(5).dropLast())))
    }
}
