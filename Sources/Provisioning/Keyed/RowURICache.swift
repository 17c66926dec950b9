import Synchronization

/// The URIs each row was written with, as `TapJobVerifier.rowURIs` renders them, kept by row: a tag tapped again
/// is checked against its row without rendering the template again.
///
/// An entry answers only the same row fields and UID it was rendered from (what the ledger read with the tag), so a
/// row whose fields changed is rendered again. At most `capacity` rows are kept; the cache starts empty again when
/// it is full.
final class RowURICache: Sendable {
    typealias Render = @Sendable (Int, [String: String], [UInt8]) throws -> [String]

    private struct Entry {
        var fields: [String: String]
        var uid: [UInt8]
        var uris: [String]
    }

    static let capacity = 16_384

    private let render: Render
    private let entries = Mutex<[Int: Entry]>([:])

    init(_ render: @escaping Render) { self.render = render }

    /// Row `row`'s URIs for `fields` and `uid`: kept, or rendered (and kept) when the row's entry is for others.
    func uris(row: Int, fields: [String: String], uid: [UInt8]) throws -> [String] {
        if let entry = entries.withLock({ $0[row] }), entry.fields == fields, entry.uid == uid { return entry.uris }
        let uris = try render(row, fields, uid)
        entries.withLock {
            if $0.count >= Self.capacity { $0.removeAll(keepingCapacity: true) }
            $0[row] = Entry(fields: fields, uid: uid, uris: uris)
        }
        return uris
    }
}
