import Synchronization
import Testing

@testable import Provisioning

/// `RowURICache`: a row's URIs are rendered once for the fields and UID the ledger gave, and again when they differ.
@Suite struct RowURICacheTests {
    @Test func aRowIsRenderedOnceForTheSameFieldsAndUID() throws {
        let renders = Mutex(0)
        let cache = RowURICache { row, fields, uid in
            renders.withLock { $0 += 1 }
            return ["https://brand.example/p/\(fields["sku"] ?? "")?row=\(row)&uid=\(uid.count)"]
        }
        let uid: [UInt8] = [4, 1, 2, 3, 4, 5, 6]
        let first = try cache.uris(row: 2, fields: ["sku": "A"], uid: uid)
        #expect(first == ["https://brand.example/p/A?row=2&uid=7"])
        #expect(try cache.uris(row: 2, fields: ["sku": "A"], uid: uid) == first)
        #expect(renders.withLock { $0 } == 1)
        #expect(try cache.uris(row: 2, fields: ["sku": "B"], uid: uid) == ["https://brand.example/p/B?row=2&uid=7"])
        #expect(try cache.uris(row: 2, fields: ["sku": "B"], uid: [4, 1]) == ["https://brand.example/p/B?row=2&uid=2"])
        #expect(try cache.uris(row: 3, fields: ["sku": "B"], uid: [4, 1]) == ["https://brand.example/p/B?row=3&uid=2"])
        #expect(renders.withLock { $0 } == 4, "other fields, another UID, another row: each rendered")
    }

    @Test func aRenderErrorIsThrownAndNothingKept() throws {
        struct Refused: Error {}
        let fail = Mutex(true)
        let cache = RowURICache { _, _, _ in
            if fail.withLock({ $0 }) { throw Refused() }
            return ["u"]
        }
        #expect(throws: Refused.self) { try cache.uris(row: 1, fields: [:], uid: []) }
        fail.withLock { $0 = false }
        #expect(try cache.uris(row: 1, fields: [:], uid: []) == ["u"])
    }
}
