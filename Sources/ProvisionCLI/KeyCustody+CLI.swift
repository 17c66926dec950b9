import Provisioning

extension CommandContext {
    /// How this command accepts token keys (`--allow-extractable-key`), with custody warnings and the token's
    /// outage notices ("went away; pausing", "back after …") on the diagnostics stream.
    func keyCustody(allowExtractable: Bool) -> KeyCustody {
        let diagnostics = output.diagnostics
        TokenAccess.setNotices { diagnostics.line("warning: \($0)") }
        return KeyCustody(allowExtractable: allowExtractable) { diagnostics.line("warning: \($0)") }
    }
}

/// The `--allow-extractable-key` option's help line, shared by every command that loads keys.
enum KeyCustodyHelp {
    static let option = """
          --allow-extractable-key
                           accept a token master that is not sensitive or is extractable (a trial token);
                           without it such a key is refused (65)
        """
}
