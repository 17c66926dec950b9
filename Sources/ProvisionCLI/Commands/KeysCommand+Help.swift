import NFCTags

/// `provision keys --help`: every subcommand's forms, exit codes and an example.
enum KeysHelp {
    static var text: String {
        """
        Usage: provision keys list --token URI [--pin-file FILE|--pin-env VAR] [--json]
               provision keys generate --token URI --label LABEL [--id HEX] [--hmac] [--pin-file FILE|--pin-env VAR]
               provision keys import --token URI --from @FILE|env:VAR --label LABEL [--id HEX] [--hmac]
                                     [--pin-file FILE|--pin-env VAR]
               provision keys diversify --master @FILE|env:VAR|pkcs11:URI --input HEX [--allow-extractable-key]
                                        [--json]

        Master keys can live in a PKCS #11 token (an HSM, or SoftHSM2 for a trial) instead of a file: the line
        then names them by URI and every derivation runs in the token (docs/keys.md). A token is named by an
        RFC 7512 URI such as
          'pkcs11:token=line-a?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-source=file:/etc/provision/pin'
        (the module from module-path, else PROVISION_PKCS11_MODULE). The user PIN comes from the URI's
        pin-source, --pin-file FILE (mode 0600, like key files) or --pin-env VAR, never from the command line.
        A fingerprint (v1:…) is computed where the key lives, so a key in a file and the same key in a token
        show the same one: the first 8 bytes of AES-CMAC(K, "provision key fingerprint v1"), or of HMAC-SHA256
        for an HMAC key.

        list: every secret key in the token (only those the URI's object= or id= name, when given), sorted by
        label: label, id (hex), type (AES or HMAC), length, sensitive, extractable, copyable, modifiable,
        private, the token's check value (CKA_CHECK_VALUE, hex) when it gives one, and the fingerprint,
        computed in the token (none for a key that may not MAC, such as a decrypt-only key). A master a line
        uses must be sensitive and not extractable.

        generate: a random AES-128 master (--hmac: a 32-byte HMAC-SHA256 key) made inside the token, never seen
        by this computer; prints its label and fingerprint. Back it up by the HSM's own wrapping (docs/keys.md).

        import: moves a key from an owner-only file or an environment variable into the token, as a private,
        sensitive, non-extractable, non-copyable, non-modifiable object that may only MAC and encrypt (an AES
        master, 16 bytes) or only MAC (--hmac: an NTAG21x brand key of up to 64 bytes, stored zero-padded to 32,
        which gives the same MACs). Prints the fingerprint the token computes, which equals the file key's; the
        key's bytes are never printed. The file still holds the key afterwards: keep it offline or delete it.

        generate and import never overwrite: a label the token holds already is refused (73), nothing written.

        diversify: prints the AES-128 key NXP AN10922 derives from the master key for the diversification
        input M (1–31 bytes of hex; \(inputs), see docs/authentication.md): CMAC over 01 ‖ M padded to 32
        bytes, as AN10922 fixes it, which differs from a plain CMAC when M is short. For checks against another
        system and for support. The printed key is the one secret this command shows: keep its output away
        from logs. A token master must be sensitive and not extractable; a copyable or modifiable one is
        accepted with a warning.

        Options:
          --token URI      the token (list: object= or id= select keys); a pkcs11: URI
          --pin-file FILE  the token's user PIN, in an owner-only file (when the URI has no pin-source)
          --pin-env VAR    the token's user PIN, in an environment variable
          --label LABEL    generate, import: the new key's label (CKA_LABEL), as a URI names it by object=
          --id HEX         generate, import: the new key's CKA_ID, as a URI names it by id=%01
          --hmac           generate, import: an HMAC-SHA256 key (NTAG21x PWD/PACK and URL MACs), not AES
          --from SOURCE    import: the key, @FILE (mode 0600) or env:VARIABLE
          --master SOURCE  diversify: the 16-byte master key, @FILE (mode 0600), env:VARIABLE or pkcs11:URI
          --input HEX      diversify: the diversification input M, 1–31 bytes
        \(KeyCustodyHelp.option)
          --json           list: print {"version": 2, "token": {label, manufacturer, model, serial}, "keys":
                           [{label, id, type, length, sensitive, extractable, copyable, modifiable, private,
                           always_sensitive, never_extractable, check_value, fingerprint}]}; diversify: print
                           {"version": 2, "key", "input", "master_fingerprint"}

        Exit codes: 0 done; 64 usage (a PIN or key value on the command line, a bad URI, a URI matching
        several tokens); 65 bad key or attributes (a master that is not 16 bytes, a bad input, a token master
        that is not sensitive or is extractable, named: "not sensitive, extractable"); 66 token, object or key
        not found; 69 module or mechanism unavailable; 73 a key with that label exists already; 77 PIN refused,
        or a key or PIN file readable by group or others.

        Examples:
          provision keys generate --token 'pkcs11:token=line-a?module-path=/usr/lib/softhsm/libsofthsm2.so' \\
              --pin-file /etc/provision/pin --label brand-master
          provision keys import --token "$TOKEN" --from @master.key --label brand-master
          provision keys list --token "$TOKEN" --json
          provision keys diversify --master env:MASTER --input 04782E21801D803042F54E585020416275

        """
    }

    /// What M is for each keyed scheme's chips (`KeyedScheme.diversificationInput`).
    static var inputs: String {
        TagFamilies.standard.keyedSchemes.map(\.diversificationInput).joined(separator: "; ")
    }
}
