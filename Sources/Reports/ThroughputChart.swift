import Foundation
import Ledger

/// Tags done per minute over the run, per reader (or per station on a line of stations), as stacked bars in
/// fixed time buckets.
///
/// A run with two or more stations (`StationFigures.groups`) has one series per station, each summing its
/// readers; any other run has one series per reader.
///
/// The bucket is the smallest of 1 s … 2 h that keeps the run within `maximumBuckets` bars (a minute
/// or finer for runs up to 90 minutes). Every bucket of the run gets a slot, so a pause shows as a gap
/// (zero bar), and runs of empty buckets are shaded and labelled "no tags". Heights are rates
/// (tags ÷ bucket length × 60), so the axis reads "tags per minute" whatever the bucket.
public struct ThroughputChart: Sendable, Hashable {
    /// Bucket lengths tried, shortest first (seconds).
    public static let bucketChoices = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200]
    /// The most buckets drawn.
    public static let maximumBuckets = 90

    /// Series names in legend order: the report's readers, then any other reader seen on a tag (sorted); on a
    /// line of stations, the stations in that order (`StationFigures.label`).
    public var series: [String]
    /// Whether the series are stations rather than readers.
    public var byStation: Bool
    /// The start of bucket 0.
    public var origin: Date
    /// The bucket length in seconds.
    public var bucketSeconds: Int
    /// Tags done per bucket and series: `counts[bucket][series]`.
    public var counts: [[Int]]

    /// Buckets the tags of `report` from its start (or first tag) to its end (or last tag).
    public init(_ report: RunReport) {
        var readers = report.readers
        for reader in Set(report.tags.map(\.reader)).sorted() where !readers.contains(reader) { readers.append(reader) }
        let stations = StationFigures.groups(report)
        byStation = !stations.isEmpty
        series = byStation ? stations.map { $0 ?? StationFigures.unnamedLabel } : readers
        let seriesOfReader: (String) -> Int? =
            byStation
            ? { stations.firstIndex(of: OpenClaim.station(ofReader: $0)) } : { readers.firstIndex(of: $0) }
        let times = report.tags.map(\.time)
        let origin = [report.startedAt, times.min()].compactMap { $0 }.min() ?? Date(timeIntervalSince1970: 0)
        let end = [report.finishedAt, times.max()].compactMap { $0 }.max() ?? origin
        let duration = max(end.timeIntervalSince(origin), 1)
        let bucket =
            Self.bucketChoices.first { (duration / Double($0)).rounded(.up) <= Double(Self.maximumBuckets) }
            ?? Self.bucketChoices[Self.bucketChoices.count - 1]
        let slots = max(Int((duration / Double(bucket)).rounded(.up)), 1)
        var counts = Array(repeating: Array(repeating: 0, count: series.count), count: slots)
        for tag in report.tags {
            guard let series = seriesOfReader(tag.reader) else { continue }
            let index = Int(tag.time.timeIntervalSince(origin) / Double(bucket))
            counts[min(max(index, 0), slots - 1)][series] += 1
        }
        self.origin = origin
        self.bucketSeconds = bucket
        self.counts = counts
    }

    /// Tags per minute of series `series` in `bucket`.
    public func rate(bucket: Int, series: Int) -> Double { Double(counts[bucket][series]) * 60 / Double(bucketSeconds) }

    /// Tags per minute of all series in `bucket`.
    public func totalRate(bucket: Int) -> Double {
        Double(counts[bucket].reduce(0, +)) * 60 / Double(bucketSeconds)
    }

    /// Ranges of consecutive empty buckets (pauses), in order.
    public var pauses: [ClosedRange<Int>] {
        var result: [ClosedRange<Int>] = []
        var start: Int?
        for (index, bucket) in counts.enumerated() {
            let empty = bucket.allSatisfy { $0 == 0 }
            if empty, start == nil { start = index }
            if !empty, let first = start {
                result.append(first...(index - 1))
                start = nil
            }
        }
        if let first = start { result.append(first...(counts.count - 1)) }
        return result
    }

    /// Chart width and height in CSS pixels.
    public static let size = (width: 960.0, height: 340.0)
    static let plot = (left: 80.0, right: 940.0, top: 56.0, bottom: 270.0)

    /// The chart; `prefix` namespaces its pattern ids.
    public func svg(prefix: String = "tp", standalone: Bool = false) -> SVGElement {
        let plot = Self.plot
        let slots = counts.count
        let slotWidth = (plot.right - plot.left) / Double(slots)
        let peak = (0..<slots).map(totalRate).max() ?? 0
        let ticks = ChartStyle.ticks(upTo: max(peak, 1))
        let top = ticks.last ?? 1
        func y(_ value: Double) -> Double { plot.bottom - value / top * (plot.bottom - plot.top) }
        var parts: [SVGElement] = [ChartStyle.patterns(prefix: prefix)]
        parts.append(
            ChartStyle.heading(
                "Throughput: tags per minute, per \(noun) (\(Self.bucketName(bucketSeconds)) buckets)"))
        parts.append(
            ChartStyle.legend(
                series.enumerated().map { ($0.element, ChartStyle.fill($0.offset, prefix: prefix)) }
                    + [("no tags (pause)", "#f0f0f0")], x: plot.left, y: 42))
        for pause in pauses {
            let x = plot.left + Double(pause.lowerBound) * slotWidth
            let width = Double(pause.count) * slotWidth
            parts.append(
                SVG.rect(
                    x: x, y: plot.top, width: width, height: plot.bottom - plot.top, fill: "#f0f0f0",
                    extra: [("class", "pause")]))
            if width >= 44 {
                parts.append(SVG.text("no tags", x: x + width / 2, y: plot.top + 14, anchor: "middle", size: 10))
            }
        }
        parts.append(
            ChartStyle.valueAxis(
                ticks: ticks, position: y, x: plot.left, top: plot.top, bottom: plot.bottom, title: "tags per minute",
                gridWidth: plot.right - plot.left))
        for bucket in 0..<slots {
            var base = 0.0
            for index in series.indices where counts[bucket][index] > 0 {
                let value = rate(bucket: bucket, series: index)
                let inset = slotWidth > 4 ? slotWidth * 0.12 : 0
                parts.append(
                    SVG.rect(
                        x: plot.left + Double(bucket) * slotWidth + inset, y: y(base + value),
                        width: slotWidth - 2 * inset, height: y(base) - y(base + value),
                        fill: ChartStyle.fill(index, prefix: prefix), stroke: "#000",
                        extra: [
                            ("class", "bar"), ("data-bucket", String(bucket)), ("data-\(noun)", String(index)),
                            ("data-value", SVG.number(value)),
                        ]))
                base += value
            }
        }
        parts.append(timeAxis(slotWidth: slotWidth))
        let description =
            "Stacked bars of tags per minute for \(series.count) \(noun)(s) in \(slots) buckets of "
            + "\(Self.bucketName(bucketSeconds)); \(pauses.count) pause(s) without tags."
        return SVG.document(
            width: Self.size.width, height: Self.size.height, title: "Throughput over time", description: description,
            standalone: standalone, children: parts)
    }

    /// What a series is: `reader` or `station`.
    public var noun: String { byStation ? "station" : "reader" }

    private func timeAxis(slotWidth: Double) -> SVGElement {
        let plot = Self.plot
        let seconds = Double(counts.count * bucketSeconds)
        let inMinutes = seconds >= 180
        let unit = inMinutes ? 60.0 : 1.0
        let ticks = ChartStyle.ticks(upTo: seconds / unit, count: 8).filter { $0 * unit <= seconds + 0.001 }
        var parts = [SVG.line(x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom)]
        for tick in ticks {
            let x = plot.left + tick * unit / seconds * (plot.right - plot.left)
            parts.append(SVG.line(x1: x, y1: plot.bottom, x2: x, y2: plot.bottom + 5))
            parts.append(SVG.text(ChartStyle.label(tick), x: x, y: plot.bottom + 18, anchor: "middle", size: 11))
        }
        let start = RunReportWriter.timestamp(origin)
        parts.append(
            SVG.text(
                "time since start (\(inMinutes ? "min" : "s")), start \(start)", x: (plot.left + plot.right) / 2,
                y: plot.bottom + 40, anchor: "middle", size: 12))
        return SVG.group([("class", "axis")], parts)
    }

    /// `10 s`, `1 min`, `2 h`.
    static func bucketName(_ seconds: Int) -> String {
        if seconds % 3600 == 0 { return "\(seconds / 3600) h" }
        if seconds % 60 == 0 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }
}
