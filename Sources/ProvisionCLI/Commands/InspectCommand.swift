import Foundation
import NDEF
import NFCTags
import Provisioning

/// `provision inspect`: waits for one tag and shows everything about it, read-only.
struct InspectCommand: Command {
    static let name = "inspect"
    static let stopsBetweenTags = true
    static let summary = "show one tag: UID, chip, NDEF, locks, protection, signature"
    static let help = """
        Usage: provision inspect [--reader SPEC] [--manifest MANIFEST] [--json] [--dump] [--timeout SECONDS]

        Waits for one tag and prints what it is and holds; never writes. Shown: UID (cross-checked
        against pages 0–2), chip from GET_VERSION (vendor, clone suspicion), NDEF status and capacity,
        lock state (static lock bytes, dynamic lock bytes, CC), protection (AUTH0, PROT, CFGLCK,
        AUTHLIM, NFC counter), the originality signature (checked against NXP's key and the
        repository's simulator test key; the output says which one matched), reader notes, and the
        NDEF records one per line (as 'provision ndef decode' prints them, URIs whole). The tag is
        released at the end.

        Type 4 tags (ISO-DEP: \(ChipLists.chips(of: Type4Family.name)), any T4T) show the chip from the
        native GetVersion (none on a generic tag), the CC (mapping, MLe, MLc, the NDEF file's size and read/write
        access, proprietary files) and NLEN, the ATS decoded (frame size, bit rates, FWI and FWT,
        SFGI, CID/NAD, historical bytes) and GetVersion's fields. A Type 4 chip's originality
        signature (Read_Sig, ECDSA secp224r1) is checked against its maker's published key and the
        repository's secp224r1 test key, on any reader path (it is an ordinary APDU). In --json the CC section is
        under 'locks' and the ATS and GetVersion under 'protection' (the family's two sections).

        With --manifest of a job that has a 'protect' section, the job's key is loaded (as 'run'
        loads it) and a chip with password protection is authenticated before anything is read:
        PWD_AUTH with the password derived from the key and the UID, and the PACK must match. Pages behind AUTH0 of a
        read-protected tag (prot: readwrite) are only shown then. A refused password is shown and the
        exit is 1; each refusal counts toward the tag's AUTHLIM. Key bytes are never printed.

        Options:
          --reader SPEC      the reader (default \(ReaderFactory.defaultSpec))
          --manifest FILE    authenticate with the password derived from this job's 'protect' key
          --json             print one JSON object instead of text (stable, see below); when no
                             tag can be inspected (no reader, no tag in time, a missing manifest)
                             {"error": {exit, class, message}} instead (docs/json.md)
          --dump             add a hex dump of every readable page
          --timeout SECONDS  how long to wait for a tag (default 30); none → exit 69; Ctrl-C → 130

        JSON object (version 2, docs/json.md; snake_case keys; optional keys are left out when unknown):
          version 2 · reader · family · uid (hex) · atqa · sak · dsfid (Type 5 only) · uid_anomalies [text]
          chip {model (the chip's id; absent: generic), name, get_version, vendor, suspected_clone,
                generic_reason}
          ndef {status readWrite|readOnly|notSupported, capacity, message_length, message_hex,
                records [{index, tnf, type, id, payload_hex, summary, record}], error}
                (record: the record's object as 'provision ndef decode --json' prints it, URIs whole)
          locks {static_bytes, static_locked_pages [page], dynamic_bytes, dynamic_locked_ranges
                 [[first,last]], cc, cc_write_access, cc_phone_compatible} (Type 2; absent when pages 0–3
                 are unreadable)
          protection {auth0, password_protected, prot, cfglck, authlim, nfc_counter_enabled, mirror}
                 (Type 2; absent on generic tags)
          signature {status nxp|testKey|invalid|unavailable, value, detail}
          authentication {key, status accepted|refused|notSent, detail} (with --manifest of a protected job)
          raw_commands · notes [text] · unit_kind page|offset|block · units [hex per unit] (with --dump)
          cost {exchanges, airtime_microseconds}

        Examples:
          provision inspect
          provision inspect --reader '\(ReaderFactory.defaultSpec)?store=tags&uid=04A1B2C3D4E5F6' --dump
          provision inspect --reader nfc:pn532_uart:/dev/ttyUSB0 --json --timeout 60
          provision inspect --manifest jobs/auth.json --reader pcsc:#0

        Exit codes: 0 ok, 1 the tag refused the derived password, 64 usage (bad spec), 65 bad
        manifest, 66 missing manifest or key, 69 no tag in time / no reader, 74 reader failure,
        77 a key file readable by group or others.

        \(ReaderFactory.specHelp)
        """

    /// `--reader SPEC` (default `ReaderFactory.defaultSpec`).
    var reader: String?
    /// `--manifest FILE`: authenticate with the password derived from this job's `protect` key.
    var manifest: String?
    /// `--json`: print the stable object instead of text.
    var json = false
    /// `--dump`: add every readable page.
    var dump = false
    /// `--timeout SECONDS`: how long to wait for a tag.
    var timeout: Duration

    static func parse(_ arguments: [String]) throws(CLIError) -> InspectCommand {
        let args = try Arguments(arguments, flags: ["json", "dump"], options: ["reader", "timeout", "manifest"])
        try args.requirePositionals(
            0...0, usage: "provision inspect [--reader SPEC] [--manifest FILE] [--json] [--dump]")
        return InspectCommand(
            reader: args.value("reader"), manifest: args.value("manifest"), json: args.flag("json"),
            dump: args.flag("dump"), timeout: try args.timeout())
    }

    func run(context: CommandContext) async throws -> ExitCode {
        let protectionKey = try manifest.flatMap { path throws(CLIError) -> SecretKey? in
            try JobContext.load(path, context: context).loadProtectionKey(environment: context.environment)
        }
        let reader = try await TagSession.openReader(spec: self.reader)
        let dump = self.dump
        let report = try await TagSession.withTag(on: reader, timeout: timeout, context: context, identify: false) {
            session in
            try await Self.inspect(session.detected, on: reader, dump: dump, protectionKey: protectionKey)
        }
        if json {
            try context.output.document(report)
        } else {
            context.output.write(Self.text(report))
        }
        return report.authentication?.status == "refused" ? .failure : .success
    }

    /// Inspects the tag `detected` on `reader` through its family (one reader call).
    static func inspect(
        _ detected: DetectedTag, on reader: any TagReader, dump: Bool, protectionKey: SecretKey?,
        families: TagFamilies = .standard
    ) async throws -> InspectReport {
        let password = try protectionKey.map { key in (key: key.id, value: try TagPassword(key: key, uid: detected.uid))
        }
        let facts = try await reader.withTransceiver { transceiver in
            try InspectReport.gather(
                on: transceiver, detected: detected, families: families, dump: dump, password: password)
        }
        return InspectReport(facts: facts, detected: detected, reader: reader)
    }

    /// The human-readable form (not stable; use `--json` for machines).
    static func text(_ report: InspectReport) -> String {
        var lines: [String] = []
        func add(_ label: String, _ value: String) {
            lines.append(label.padding(toLength: 12, withPad: " ", startingAt: 0) + value)
        }
        add("Reader", "\(report.reader) (raw commands: \(report.rawCommands ? "yes" : "no"))")
        // Only some families repeat their UID in memory (Type 2 pages 0–2) for a cross-check.
        let anomalies =
            !report.uidAnomalies.isEmpty
            ? "; " + report.uidAnomalies.joined(separator: "; ")
            : TagFamilies.standard.named(report.family)?.memoryRepeatsUID == true ? "; pages 0–2 consistent" : ""
        let activation =
            report.family == Type3Family.name
            ? "FeliCa IDm" : report.dsfid.map { "ISO 15693, DSFID \($0)" } ?? "ATQA \(report.atqa), SAK \(report.sak)"
        add("UID", "\(report.uid) (\(activation))\(anomalies)")
        var chip = report.chip.name
        if let version = report.chip.getVersion { chip += ", GET_VERSION \(version)" }
        if let vendor = report.chip.vendor { chip += ", vendor \(vendor)\(vendor == "04" ? " (NXP)" : "")" }
        if let reason = report.chip.genericReason { chip += " (\(reason))" }
        if report.chip.suspectedClone { chip += " — SUSPECTED CLONE" }
        add("Chip", chip)
        add("Signature", "\(report.signature.status): \(report.signature.detail)")
        if let authentication = report.authentication {
            add("Password", "\(authentication.status): \(authentication.detail)")
        }
        var ndef = "\(report.ndef.status), capacity \(report.ndef.capacity) bytes"
        if let length = report.ndef.messageLength {
            ndef += length == 0 ? ", empty message" : ", message \(length) bytes"
        }
        add("NDEF", ndef)
        for line in report.locks?.base.lines ?? [] { add(line.label, line.text) }
        if let protection = report.protection {
            for line in protection.base.lines { add(line.label, line.text) }
        } else {
            add("Protection", "unknown (configuration pages not known or not readable)")
        }
        for note in report.notes { add("Note", note) }
        if let error = report.ndef.error { add("NDEF error", error) }
        if report.ndef.records.isEmpty {
            let why =
                report.ndef.error != nil ? " (not readable)" : report.ndef.status == "notSupported" ? " (not NDEF)" : ""
            add("Records", "none" + why)
        } else {
            lines.append("Records")
            lines += report.ndef.records.map { "  " + $0.summary }
        }
        var cost = "\(report.cost.exchanges) exchanges"
        if let air = report.cost.airtimeMicroseconds {
            cost += String(format: ", modelled airtime %.1f ms", air / 1000)
        }
        add("Cost", cost)
        if let pages = report.units {
            lines.append("Dump (\(pages.count) pages)")
            for (index, page) in pages.enumerated() {
                let bytes = Hex.bytes(page) ?? []
                let ascii = String(bytes.map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "." })
                lines.append("  \(pageName(index))  \(page)  |\(ascii)|")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A page number as the reference documents write it (`28h`).
    static func pageName(_ page: Int) -> String { String(format: "%02Xh", page) }
}
