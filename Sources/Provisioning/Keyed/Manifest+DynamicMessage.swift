import NFCTags

/// The keyed schemes with a dynamic message, as Provisioning finds them: by a template's tokens and by a job's chip.
public enum DynamicMessages {
    /// Every keyed scheme of the families (`TagFamilies.standard`) that declares a dynamic message.
    public static var schemes: [any KeyedScheme] {
        TagFamilies.standard.keyedSchemes.filter { $0.dynamicMessage != nil }
    }

    /// The keyed scheme whose dynamic message names a placeholder `name` (its `tokenPrefix`), if any.
    static func scheme(owning name: String) -> (any KeyedScheme)? {
        schemes.first { scheme in scheme.dynamicMessage.map { name.hasPrefix($0.tokenPrefix) } ?? false }
    }

    /// The scheme token `name` is, `nil` when no scheme declares it.
    static func token(named name: String) -> DynamicToken? {
        scheme(owning: name)?.dynamicMessage?.tokens.first { $0.name == name }
    }
}

extension Manifest {
    /// The keyed scheme with a dynamic message that personalises this job's chips, whether or not the job carries
    /// its section.
    public var chipDynamicMessage: (any KeyedScheme)? {
        TagFamilies.standard.keyedScheme(personalising: tag.chips).flatMap { $0.dynamicMessage == nil ? nil : $0 }
    }

    /// The dynamic message of a keyed job (its manifest carries the scheme's section), else `nil`.
    public var dynamicMessage: (any DynamicMessageScheme)? { keyed?.scheme.dynamicMessage }

    /// What a keyed job says about its dynamic message: the lock mode's rights and what the MAC covers.
    public var dynamicMessageOptions: DynamicMessageOptions? {
        guard let keyed, let scheme = keyed.scheme.dynamicMessage else { return nil }
        return scheme.messageOptions(keyed.options, rights: lock.rights)
    }

    /// The manifest field naming a keyed job's master key (`SECTION.master`), for messages.
    public var keyedMasterField: String? { keyed.map { "\($0.scheme.section).master" } }
}

extension Manifest.LockMode {
    /// Who may rewrite a keyed tag's message under this lock mode.
    public var rights: DynamicMessageOptions.Rights {
        switch self {
        case .none: .free
        case .keys: .key
        case .permanent: .never
        }
    }
}
