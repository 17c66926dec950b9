import NFCTags

extension PCSCReader {
    /// The names of the readers pcscd knows now, in its order (`pcsc:#N` counts from 0).
    ///
    /// The corresponding C function is `SCardListReaders`, on a short-lived context.
    /// - Throws: `PCSCError` (`.noService` when pcscd is not running).
    public static func listReaders() throws(PCSCError) -> [String] {
        let context: PCSCContext
        do {
            context = try PCSCContext()
        } catch {
            throw PCSCError.from(error, while: "listing readers")
        }
        switch PCSCCalls.listReaders(context.value) {
        case .success(let names): return names
        case .failure(let status): throw PCSCError.from(status, while: "listing readers")
        }
    }

    /// Opens the readers a `pcsc` spec names, one actor each.
    ///
    /// ```
    /// pcsc                 the first reader
    /// pcsc:*               every reader
    /// pcsc:#N              reader N (0-based, pcsc_scan order)
    /// pcsc:<name>          the reader with exactly this name, else the one whose name contains it
    /// …?style=acr122u|acr1252u|acr1552u|omnikey|storage|plain   override the family guessed from the name
    /// …?feedback=off                   no LED/buzzer feedback
    /// ```
    ///
    /// - Throws: `PCSCError` (`.badSpec`, `.noService`, `.noReaders`, `.readerNotFound`).
    public static func open(spec: ReaderSpec) async throws(PCSCError) -> [PCSCReader] {
        guard spec.scheme == "pcsc" else { throw PCSCError(.badSpec, "reader '\(spec)': not a pcsc spec") }
        var style: PCSCReaderStyle?
        var feedback = true
        for (key, value) in spec.options {
            switch key {
            case "style":
                guard let parsed = PCSCReaderStyle(rawValue: value) else {
                    throw PCSCError(
                        .badSpec, "reader '\(spec)': style must be one of \(PCSCReaderStyle.names), got '\(value)'")
                }
                style = parsed
            case "feedback":
                switch value {
                case "on", "true", "yes": feedback = true
                case "off", "false", "no": feedback = false
                default: throw PCSCError(.badSpec, "reader '\(spec)': feedback must be on or off, got '\(value)'")
                }
            default:
                throw PCSCError(.badSpec, "reader '\(spec)': unknown option '\(key)' (style, feedback)")
            }
        }
        let names = try listReaders()
        guard !names.isEmpty else { throw PCSCError(.noReaders, "no PC/SC reader is connected") }
        let chosen = try select(spec.target, from: names, spec: spec)
        var readers: [PCSCReader] = []
        for name in chosen {
            readers.append(try PCSCReader(name: name, style: style, feedback: feedback))
        }
        return readers
    }

    /// Opens the readers named by spec text (`pcsc:#0?style=acr122u`).
    public static func open(_ text: String) async throws(PCSCError) -> [PCSCReader] {
        let spec: ReaderSpec
        do {
            spec = try ReaderSpec(text)
        } catch {
            throw PCSCError(.badSpec, error.description)
        }
        return try await open(spec: spec)
    }

    static func select(_ target: String, from names: [String], spec: ReaderSpec) throws(PCSCError) -> [String] {
        if target.isEmpty { return [names[0]] }
        if target == "*" { return names }
        if target.hasPrefix("#") {
            guard let index = Int(target.dropFirst()), index >= 0 else {
                throw PCSCError(.badSpec, "reader '\(spec)': '#' must be followed by a reader index")
            }
            guard index < names.count else {
                throw PCSCError(
                    .readerNotFound,
                    "reader '\(spec)': no reader #\(index); there are \(names.count): "
                        + names.joined(separator: ", "))
            }
            return [names[index]]
        }
        if names.contains(target) { return [target] }
        let matches = names.filter { $0.lowercased().contains(target.lowercased()) }
        guard matches.count == 1 else {
            let reason = matches.isEmpty ? "no reader matches" : "\(matches.count) readers match"
            throw PCSCError(.readerNotFound, "reader '\(spec)': \(reason); readers: " + names.joined(separator: ", "))
        }
        return matches
    }
}
