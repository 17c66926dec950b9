import NFCTags

extension Type4SDMSettings {
    /// Settings from their fields, the offsets in wire order (those the options do not call for stay 0).
    public static func fields(
        _ options: (uid: Bool, counter: Bool, enc: Bool), meta: Type4FileSettings.Access,
        file: Type4FileSettings.Access, counterRight: Type4FileSettings.Access, offsets: [Int], limit: UInt32? = nil
    ) -> Type4SDMSettings {
        var settings = Type4SDMSettings()
        settings.mirrorsUID = options.uid
        settings.mirrorsReadCounter = options.counter
        settings.encryptsFileData = options.enc
        settings.metaRead = meta
        settings.fileRead = file
        settings.counterRetrieval = counterRight
        settings.readCounterLimit = limit
        var next = offsets.makeIterator()
        if settings.mirrorsUID && meta == .free { settings.uidOffset = next.next() ?? 0 }
        if settings.mirrorsReadCounter && meta == .free { settings.readCounterOffset = next.next() ?? 0 }
        if case .key = meta { settings.piccDataOffset = next.next() ?? 0 }
        if file != .never {
            settings.macInputOffset = next.next() ?? 0
            if options.enc {
                settings.encryptedDataOffset = next.next() ?? 0
                settings.encryptedDataLength = next.next() ?? 0
            }
            settings.macOffset = next.next() ?? 0
        }
        return settings
    }
}
