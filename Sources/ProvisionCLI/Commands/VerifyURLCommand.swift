import Foundation
import Ledger
import NDEF
import NFCTags
import Provisioning
import Reports

/// `provision verify-url URL --manifest M`: what a brand's back end does with a tap URL.
struct VerifyURLCommand: Command {
    static let name = "verify-url"
    static let summary = "check a tap URL's MAC against the job's key and ledger"
    static let help = """
        Usage: provision verify-url URL --manifest MANIFEST [--key KEYID=@FILE|KEYID=env:VAR|KEYID=pkcs11:URI]
                                    [--counter-window N] [--operator] [--json]
               provision verify-url URL --meta-key @FILE|env:VAR --file-key @FILE|env:VAR
                                    [--picc NAME] [--mac NAME] [--mac-input picc|empty] [--json]

        Three modes. NTAG21x job (a manifest without a keyed section): takes URL apart along the
        job's template (the string holding {{mac:…}}), looks the UID up in the job's ledger, recomputes
        the MAC over the template's inputs with the job's key and prints one word:
          valid       the MAC matches a tag of this job (and a mirrored counter rose plausibly)
          invalid     the MAC, the URL's shape or a mirror window does not match; also a UID that is
                      not a tag of this job (the answer must not tell outsiders which UIDs a job holds)
          replayed    with a counter mirror: the counter is not above the last one accepted
          suspicious  with a counter mirror: the counter jumped more than --counter-window above the
                      last one accepted (not stored, so one forged FFFFFF blocks nothing; a forged rise
                      within the window is stored, docs/authentication.md)
          unknown     only with --operator: the UID is not a tag of this job

        NTAG21x: the MAC is static and the mirrored counter is outside it, so the counter is not
        authenticated: this check catches careless replays, not a determined cloner, and anyone with
        one genuine URL can make later genuine taps answer replayed. A keyed chip's
        dynamic message (SUN) is the remedy (docs/authentication.md).

        Keyed job (a manifest with its chip's keyed section): the chip's dynamic message scheme
        finds its parameters in the URL from the job's template and section (for SUN, the query
        parameters of {{sun.picc}} and {{sun.mac}}: in the query only, exact names, each once),
        checks the message with the tag's keys derived
        from the master key (SUN: decrypts the PICC data with K1, checks the MAC with the UID's K2),
        and records every valid counter in the ledger. The counter is inside the MAC, so:
          valid       genuine, a done tag of this job, and its counter rose (recorded)
          invalid     the message or its MAC does not verify (tampered, another key, a clone)
          unknown     genuine, but the UID is not a done tag of this job
          replayed    genuine, but the counter is not above the highest one verified (a copied URL)
        An invalid answer names nothing it decrypted (no UID, counter or row; one reason for a failed
        decryption, a failed MAC or a genuine SUN pasted into another URL) unless --operator is given.

        SUN with explicit keys (interoperability, support; no job, no ledger, so only
        valid or invalid): decrypts the PICC data parameter with the SDM meta-read key (AES-128, IV 0),
        takes the UID and read counter from it, derives the SDM MAC session key from the file-read key
        and compares the SDMMAC. The MAC input is the URL from the PICC data's first character to just
        before the MAC (picc, NXP's layout) or nothing (empty, Bolt cards). Replays need the ledger of
        a job. Keys are 16 bytes, from an owner-only file or an environment variable, never the
        command line.

        Options:
          --manifest FILE       the job (template, keys, ledger)
          --key KEYID=@FILE     the key from an owner-only file, KEYID=env:VAR from the environment or
                                KEYID=pkcs11:URI in a token, instead of the manifest's keys section (a
                                keyed job: its master key only); a key value itself is refused
          --allow-extractable-key
                                accept a token key that is not sensitive or is extractable (65 without)
          --counter-window N    NTAG21x: the largest rise of a mirrored counter accepted (default 1000)
          --operator            local diagnostics: NTAG21x, say unknown for a UID that is not in the job and
                                which value of an invalid URL differs; keyed job, add what an invalid answer
                                leaves out (UID, counter, row)
          --json                print {"version": 2, "verdict", "valid", "detail"} (docs/json.md), with
                                "uid" and "counter" for SUN, and "row" and "key_versions" ({"k0": n, …},
                                from the ledger's key journal) for a keyed job; a missing manifest, key or
                                ledger prints {"error": {...}} instead
          --meta-key SOURCE     SUN: the SDM meta-read key (K1 of the job's roles) decrypting the PICC data
          --file-key SOURCE     SUN: the SDM file-read key (K2) the MAC session key comes from
          --picc NAME           SUN: the PICC data's query parameter (default picc_data)
          --mac NAME            SUN: the MAC's query parameter (default cmac)
          --mac-input MODE      SUN: picc (default) or empty
        \(LedgerTLS.help)

        URLs over \(TapURL.maximumLength) bytes are refused (exit 65) unread.

        Exit: 0 valid, 1 invalid, unknown, replayed or suspicious, 64 usage, 65 bad job or URL, 66 missing
        file or key, 77 a key file readable by group or others.

        Examples:
          provision verify-url 'https://example.com/t?u=04A1B2C3D4E5F6&m=1F2E3D4C5B6A7988' --manifest jobs/auth.json
          provision verify-url 'https://e.io/t?p=…&m=…' --manifest jobs/sun.json --json
          provision verify-url 'https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086' \\
              --meta-key env:K1 --file-key env:K2 --picc e --mac c --mac-input empty

        """

    /// The default `--counter-window`.
    static let defaultCounterWindow = MACMirrorVerifier.defaultCounterWindow

    /// The tap URL to check.
    var url: String
    /// `--manifest FILE`: the job (`nil` in the SUN explicit-key mode).
    var manifest: String?
    /// The SUN explicit-key mode (`--meta-key`, `--file-key`, …), instead of a job.
    var sun: SUNKeys?
    /// `--key KEYID=@FILE|KEYID=env:VAR`, instead of the manifest's keys.
    var keys: [KeyArgument] = []
    /// `--counter-window N` (`nil`: not given, `defaultCounterWindow`).
    var counterWindow: Int?
    /// `--operator`: say `unknown` for a UID outside the job (NTAG21x); show what an invalid SUN decrypted to.
    var operatorMode = false
    /// `--json`: print the verdict document instead of the line.
    var json = false
    /// `--ledger FILE|URI`: instead of the manifest's.
    var ledger: String?
    /// `--allow-extractable-key`: accept a token master that could leave its token.
    var allowExtractableKey = false

    /// The `--json` result document (docs/json.md, version 2).
    struct Document: Encodable, Sendable {
        var version = JSONDocument.version
        /// `valid`, `invalid`, `replayed`, `suspicious` or `unknown`.
        var verdict: String
        /// Whether the verdict is `valid` (exit 0).
        var valid: Bool
        var detail: String
        /// SUN: the UID (hex) and read counter from the PICC data, when it decrypted.
        var uid: String?
        var counter: UInt32?
        /// SUN job: the job's row the tag carries, and its key versions by key (`k0`–`k4`) from the key journal.
        var row: Int?
        var keyVersions: DataKeyed<Int>?
    }

    /// `--insecure-ledger`: a ledger server over TCP without a verified certificate (`LedgerTLS`).
    var insecureLedger = false

    static func parse(_ arguments: [String]) throws(CLIError) -> VerifyURLCommand {
        let args = try Arguments(
            arguments, flags: ["operator", "json", "allow-extractable-key", LedgerTLS.flag],
            options: [
                "manifest", "key", "counter-window", "meta-key", "file-key", "picc", "mac", "mac-input", "ledger",
            ])
        try args.requirePositionals(1...1, usage: "provision verify-url URL --manifest MANIFEST")
        if let sun = try SUNKeys.parse(args) {
            var command = VerifyURLCommand(url: args.positionals[0], manifest: nil, sun: sun, json: args.flag("json"))
            command.allowExtractableKey = args.flag("allow-extractable-key")
            return command
        }
        guard let manifest = args.value("manifest") else {
            throw CLIError.usage(
                "verify-url needs --manifest MANIFEST (or --meta-key and --file-key)", option: "manifest")
        }
        var command = VerifyURLCommand(
            url: args.positionals[0], manifest: manifest,
            keys: try args.all("key").map { text throws(CLIError) in try KeyArgument(text, option: "key") },
            counterWindow: try args.integer("counter-window", in: 1...0xFF_FFFF),
            operatorMode: args.flag("operator"), json: args.flag("json"), ledger: args.value("ledger"))
        command.allowExtractableKey = args.flag("allow-extractable-key")
        command.insecureLedger = args.flag(LedgerTLS.flag)
        return command
    }

    func run(context: CommandContext) async throws -> ExitCode {
        guard let manifestPath = manifest else { return try runSUN(context: context) }
        let keyArguments = keys
        let window = counterWindow ?? Self.defaultCounterWindow
        guard url.utf8.count <= TapURL.maximumLength else {
            throw CLIError.data("the URL has \(url.utf8.count) bytes; verify-url takes at most \(TapURL.maximumLength)")
        }
        var job = try JobContext.load(manifestPath, context: context, ledger: ledger)
        if job.manifest.dynamicMessage != nil { return try await runKeyedJob(job, context: context) }
        let custody = context.keyCustody(allowExtractable: allowExtractableKey)
        if keyArguments.isEmpty {
            try job.loadKeys(environment: context.environment, custody: custody)
        } else {
            for key in keyArguments {
                do {
                    job.keys[key.id] = try KeyLoader.load(
                        id: key.id, from: key.source, environment: context.environment, kind: .hmac, custody: custody)
                } catch {
                    throw JobContext.cliError(error)
                }
            }
        }
        let service = TapService(jobs: [
            try await Self.macMirrorServiceJob(
                job, counterWindow: window, revealsUnknownUIDs: operatorMode, station: "verify-url",
                insecureLedger: insecureLedger, context: context)
        ])
        let answer: TapJobVerdict
        do {
            answer = try await service.verify(url: url).verdict
        } catch {
            throw JobContext.cliError(error)
        }
        let explanation = operatorMode ? answer.explanation.map { " (operator: \($0))" } ?? "" : ""
        return try verdict(answer.kind.rawValue, answer.detail + explanation, context: context)
    }

    func verdict(
        _ word: String, _ detail: String, uid: String? = nil, counter: UInt32? = nil, context: CommandContext
    ) throws(CLIError) -> ExitCode {
        if json {
            try context.output.document(
                Document(verdict: word, valid: word == "valid", detail: detail, uid: uid, counter: counter))
        } else {
            context.output.line("\(word): \(detail)")
        }
        return word == "valid" ? .success : .failure
    }
}
