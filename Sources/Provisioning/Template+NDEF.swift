// INTERIM until the NDEF codec lands on main: sizes URI and Text records only.
extension Template {
    private static let uriPrefixes = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:", "ftp://anonymous:anonymous@",
        "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://", "dav://", "news:", "telnet://", "imap:",
        "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:", "btspp://", "btl2cap://", "btgoep://", "tcpobex://",
        "irdaobex://", "file://", "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    /// The encoded NDEF message size and its Type 2 TLV area size (TLV and terminator) for a row.
    public func encodedSizes(row: JobRow, late: LateBound?) throws(JobInputError) -> (message: Int, tlv: Int) {
        let json = try renderRecordJSON(row: row, late: late)
        let node: JSONNode
        do { node = try JSONScanner.parse(json) } catch {
            throw JobInputError(.renderFailed, file: file, row: row.row, error.message)
        }
        let records = node["records"]?.elements ?? node.elements ?? []
        var total = 0
        for (index, record) in records.enumerated() {
            let payload: Int
            switch record["type"]?.string {
            case "uri":
                let uri = record["uri"]?.string ?? ""
                let prefix = Self.uriPrefixes.filter { uri.hasPrefix($0) }.max { $0.count < $1.count } ?? ""
                payload = 1 + uri.utf8.count - prefix.utf8.count
            case "text":
                payload = 1 + (record["lang"]?.string ?? "en").utf8.count + (record["text"]?.string ?? "").utf8.count
            default:
                throw JobInputError(
                    .renderFailed, file: file, position: position(ofPath: "records[\(index)].type"),
                    row: row.row, "records[\(index)].type: not supported before the NDEF codec lands")
            }
            total += 3 + 1 + payload + (payload > 255 ? 3 : 0)
        }
        return (total, 1 + (total < 255 ? 1 : 3) + total + 1)
    }
}
