import NDEF
import NFCTags

/// The simulated reader's settings, parsed from a `sim:` reader spec.
///
/// ```
/// sim:CHIP?option=value&…
///
/// CHIP          a simulator name the families publish (`ChipDescriptor.simulatorName`, listed by `chipNames`;
///               default ntag215): the Type 2 chips, or the Type 4, Type 5 and Type 3 chips with their own
///               options (SimulationOptions+Type4.swift, +Type5.swift, +Type3.swift)
/// count=N       tags in the population, presented one after another (default: unlimited)
/// uid=HEX       first UID in the chip's form (`uidForm`): 14 hex digits (7 bytes) for Type 2 and Type 4, a
///               16-digit IDm for Type 3, 16 digits starting E0 for Type 5; later tags count up from it
///               (default: 04 followed by 6 bytes derived from seed)
/// seed=N        seed for derived UIDs and faults, so runs repeat (default 0)
/// timing=MODE   instant (time only accounted, default) | datasheet (really wait the modelled
///               ISO 14443-A airtime and EEPROM programming)
/// prog=MS       EEPROM programming time per written page, ms (default 4.1)
/// faults=LIST   per-tag probabilities, comma-separated kind:p with p in 0…1:
///                 tear        the tag leaves during one of its first 16 exchanges (a WRITE then is torn)
///                 nak5        one user page among the first 12 fails its WRITE with NAK 5
///                 noanswer    one of the first 16 exchanges gets no answer (flaky RF)
///                 readonly    the tag arrives permanently locked
///                 unformatted the tag arrives with a blank capability container
///                 wrongchip   the tag is a different chip than CHIP
///                 multi       a second tag is in the field when it arrives (the first poll sees two)
///                 clone       the tag is a clone whose pages 0–1 hold another UID (identity uid)
/// plan=LIST     deterministic misbehaviour, entry i for the i-th tag: KIND@N or '-' (FaultPlan),
///               KIND garbage:N | short:N | long:N | nak:C (hex code) | sw:XXXX (Type 4 status word) | silence,
///               at the tag's N-th
///               command exchange; e.g. plan=garbage:4@3,-,nak:1@5
/// identity=LIST clone tags with inconsistent identity bytes, entry i for the i-th tag: '-' (genuine)
///               or uid (pages 0–1 hold another UID than anticollision), bcc0 | bcc1 (a wrong BCC),
///               int (INT 00 instead of 48); anticollision answers the UID either way;
///               e.g. identity=-,uid,-,bcc1
/// store=DIR     load and save each tag's image as DIR/<UID>.bin (nfc-mfultralight layout), saved when
///               it changed: once after each host session with the tag (the simulated reader; a front end
///               whose host never says so: after every programmed page) and on removal, written to a
///               temporary file and renamed, so a population survives across processes, even a killed one;
///               counters and the AUTHLIM failure count go to DIR/<UID>.state.json beside it
/// population=stored  present the tags whose images are in the store (UID order), then no more: what
///               `provision audit` reads after `run` (it adds this to a simulated reader with a store)
/// removal=MS    modelled time for the operator to take a released tag away (default 0)
/// arrival=MS    time the field stays empty before each tag arrives, really waited whatever the timing
///               (an operator placing the tag; default 0): polls meanwhile answer an empty field
/// config=WHEN   next (default) | immediate: when AUTH0/PROT/ACCESS writes act (CFGLCK: next power-up)
/// locks=WHEN    immediate (default) | next: when new lock bits act
/// wrongpwd=ANS  nak (default) | silence: answer to a wrong PWD_AUTH
/// unknown=ANS   nak (default) | silence: answer to an unsupported command
/// rfui=MODE     ignore (default) | store: whether RFUI dynamic lock bits are kept
/// signer=HEX    secp128r1 private key (32 hex digits) the tags sign READ_SIG with (default: the
///               repository's `TestSigningKey`); another key simulates chips from an untrusted source
///               (ntag424: a secp224r1 key of 56 hex digits, SimulationOptions+Type4.swift)
/// ```
///
/// Example: `sim:ntag213?count=50&uid=04A00000000000&seed=7&timing=datasheet&faults=tear:0.02,nak5:0.01`.
public struct SimulationOptions: Sendable, Hashable {
    /// Whether the simulator really waits the modelled airtime.
    public enum TimingMode: String, Sendable, Hashable {
        /// Time is only accounted.
        case instant
        /// The caller waits the modelled time.
        case datasheet
    }

    /// Per-tag fault probabilities (0…1) from `faults=`.
    public struct FaultRates: Sendable, Hashable {
        /// `tear`: removed mid-session.
        public var tear = 0.0
        /// `nak5`: EEPROM write error on one page.
        public var nak5 = 0.0
        /// `noanswer`: one silent exchange.
        public var noAnswer = 0.0
        /// `readonly`: pre-locked.
        public var readOnly = 0.0
        /// `unformatted`: blank CC.
        public var unformatted = 0.0
        /// `wrongchip`: another chip.
        public var wrongChip = 0.0
        /// `multi`: a second tag in the field.
        public var multi = 0.0
        /// `clone`: pages 0–1 hold another UID than anticollision.
        public var clone = 0.0

        /// No faults.
        public init() {}
    }

    /// The chip of every tag (unless a wrong-chip fault fires).
    public var chip: ChipModel = .ntag215
    /// The Type 4 chip of every tag instead (`sim:ntag424`, `sim:type4`), unless a wrong-chip fault fires.
    public var type4: Type4EmulatedChip?
    /// The Type 5 chip of every tag instead (`sim:icode-slix`, `icode-slix2`, `st25tv02k`, `type5`).
    public var type5: Type5EmulatedChip?
    /// The first Type 5 UID (`uid=` with 16 hex digits), else derived from the chip and the seed.
    public var type5FirstUID: [UInt8]?
    /// Whether Type 5 tags ignore unknown standard commands (`unknown=silence`).
    public var type5SilentToUnknown = false
    /// The Type 4 tags' ATS, timing and answers (`fwi=`, `wtx=`, `prog=`).
    public var type4Configuration = Type4EmulatorConfiguration()
    /// The Type 3 chip name of every tag instead (`sim:felica-lite-s`, `sim:type3`), unless a wrong-chip fault fires.
    public var type3: String?
    /// The FeliCa tags' unverified behaviours and assumed times (SimulationOptions+Type3.swift).
    public var type3Configuration = FeliCaEmulatorConfiguration()
    /// Tags in the population; `nil` = unlimited.
    public var count: Int?
    /// Seed for derived UIDs and faults.
    public var seed: UInt64 = 0
    /// The first tag's UID (a Type 3 population's: its IDm); later tags count up from it.
    public var firstUID: [UInt8]
    /// Timing mode.
    public var timing: TimingMode = .instant
    /// Fault probabilities.
    public var faultRates = FaultRates()
    /// Scheduled misbehaviour per tag (`plan=`).
    public var plan = FaultPlan<TagPlanKind>()
    /// Clone tags per population index (`identity=`; `nil` and tags past the end are genuine).
    public var identityFaults: [IdentityFault?] = []
    /// Directory holding `<UID>.bin` images, if any.
    public var storeDirectory: String?
    /// Whether the population is the stored tags only (`population=stored`), not new tags.
    public var storedPopulation = false
    /// Modelled operator removal time after a release, ms.
    public var removalMilliseconds = 0
    /// Real time the field stays empty before each tag arrives, ms.
    public var arrivalMilliseconds = 0
    /// Chip behaviour switches given to every tag (programming time included).
    public var configuration = EmulatorConfiguration()
    /// The private key every tag signs its UID with (READ_SIG).
    public var signingKey: [UInt8] = TestSigningKey.privateKey

    /// Defaults: one unlimited NTAG215 population, seed 0, instant timing, no faults.
    public init(chip: ChipModel = .ntag215, seed: UInt64 = 0) {
        self.chip = chip
        self.seed = seed
        self.firstUID = Self.derivedUID(seed: seed)
    }

    /// Parses a spec string such as `sim:ntag213?count=5`.
    public init(_ text: String) throws(ReaderSpecError) {
        try self.init(spec: ReaderSpec(text))
    }

    /// Parses a `sim:` spec; every option is documented on the type.
    ///
    /// - Throws: `ReaderSpecError` naming the bad scheme, chip or option.
    public init(spec: ReaderSpec) throws(ReaderSpecError) {
        func bad(_ reason: String) -> ReaderSpecError { ReaderSpecError(spec: spec.text, reason: reason) }
        guard spec.scheme == "sim" else {
            throw bad("not a simulated reader (scheme '\(spec.scheme)', expected 'sim')")
        }
        let chipName = spec.target.isEmpty ? Self.defaultChip.rawValue : spec.target.lowercased()
        let family = Self.descriptors.first { $0.simulatorName == chipName }?.family
        let type4 = family == Type4Family.name ? Self.type4Chip(named: chipName) : nil
        let type5 = family == Type5Family.name ? Type5EmulatedChip.named(chipName) : nil
        let type3 = family == Type3Family.name ? chipName : nil
        let other = type4 != nil || type5 != nil || type3 != nil
        guard let chip = family == Type2Family.name ? ChipModel(rawValue: chipName) : other ? Self.defaultChip : nil
        else {
            throw bad(
                "unknown chip '\(spec.target)'; use " + Self.chipNames.dropLast().joined(separator: ", ") + " or "
                    + (Self.chipNames.last ?? ""))
        }
        var seed: UInt64 = 0
        if let text = spec.option("seed") {
            guard let value = UInt64(text) else { throw bad("seed must be a non-negative integer, got '\(text)'") }
            seed = value
        }
        self.init(chip: chip, seed: seed)
        self.type4 = type4
        self.type5 = type5
        self.type3 = type3
        if type3 != nil { firstUID = FeliCaEmulator.idm(from: firstUID) }
        for (key, value) in spec.options {
            if try applyType4Option(key, value, bad) { continue }
            if try applyType5Option(key, value, bad) { continue }
            if try applyType3Option(key, value, bad) { continue }
            switch key {
            case "seed": break
            case "count":
                guard let n = Int(value), n >= 0 else {
                    throw bad("count must be a non-negative integer, got '\(value)'")
                }
                count = n
            case "uid":
                guard let bytes = uidForm.bytes(value) else {
                    throw bad("uid for \(chipName) must be its \(uidForm.name), \(uidForm), got '\(value)'")
                }
                if type5 != nil { type5FirstUID = bytes } else { firstUID = bytes }
            case "timing":
                guard let mode = TimingMode(rawValue: value) else {
                    throw bad("timing must be 'instant' or 'datasheet', got '\(value)'")
                }
                timing = mode
            case "prog":
                guard let ms = Double(value), ms >= 0, ms <= 1000 else {
                    throw bad("prog must be the programming time in ms (0…1000), got '\(value)'")
                }
                configuration.programmingMicroseconds = ms * 1000
            case "faults": faultRates = try Self.parseFaults(value, bad)
            case "plan":
                do {
                    plan = try FaultPlan(parsing: value, kind: TagAnswerFault.parse)
                } catch {
                    throw bad("plan: \(error.message); kinds are garbage:N, short:N, long:N, nak:C, sw:XXXX, silence")
                }
            case "identity":
                do {
                    identityFaults = try IdentityFault.parseList(value)
                } catch {
                    throw bad("identity: \(error.message); entries are '-', uid, bcc0, bcc1, int")
                }
            case "store":
                guard !value.isEmpty, value != "true" else { throw bad("store needs a directory: store=DIR") }
                storeDirectory = value
            case "population":
                guard value == "stored" else { throw bad("population must be 'stored', got '\(value)'") }
                storedPopulation = true
            case "removal":
                guard let ms = Int(value), ms >= 0 else { throw bad("removal must be milliseconds, got '\(value)'") }
                removalMilliseconds = ms
            case "arrival":
                guard let ms = Int(value), ms >= 0 else { throw bad("arrival must be milliseconds, got '\(value)'") }
                arrivalMilliseconds = ms
            case "config":
                guard value == "next" || value == "immediate" else { throw bad("config must be 'next' or 'immediate'") }
                configuration.configActivation = value == "next" ? .nextActivation : .immediate
            case "locks":
                guard value == "next" || value == "immediate" else { throw bad("locks must be 'immediate' or 'next'") }
                configuration.lockActivation = value == "next" ? .nextActivation : .immediate
            case "wrongpwd":
                guard value == "nak" || value == "silence" else { throw bad("wrongpwd must be 'nak' or 'silence'") }
                configuration.wrongPasswordAnswer = value == "nak" ? .nak : .silence
            case "unknown":
                guard value == "nak" || value == "silence" else { throw bad("unknown must be 'nak' or 'silence'") }
                configuration.unknownCommandAnswer = value == "nak" ? .nak : .silence
            case "rfui":
                guard value == "ignore" || value == "store" else { throw bad("rfui must be 'ignore' or 'store'") }
                configuration.storeRFUILockBits = value == "store"
            case "signer":
                guard value.count == 32, let bytes = Hex.bytes(value), bytes.count == 16 else {
                    throw bad("signer must be a secp128r1 private key, 32 hex digits (ntag424: secp224r1, 56)")
                }
                signingKey = bytes
            default:
                throw bad(
                    "unknown option '\(key)'; options are count, uid, seed, timing, prog, faults, plan, identity, "
                        + "store, population, removal, config, locks, wrongpwd, unknown, rfui, signer "
                        + "(Type 4: size, mapping, mle, mlc, fwi, wtx)")
            }
        }
        if storedPopulation && storeDirectory == nil { throw bad("population=stored needs store=DIR") }
        if type5 != nil, faultRates.wrongChip > 0 || faultRates.clone > 0 {
            throw bad("faults wrongchip and clone are not for Type 5 chips")
        }
    }

    private static func parseFaults(
        _ text: String, _ bad: (String) -> ReaderSpecError
    ) throws(ReaderSpecError) -> FaultRates {
        var rates = FaultRates()
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let p = Double(parts[1]), p >= 0, p <= 1 else {
                throw bad("fault '\(item)' must be kind:probability with a probability in 0…1")
            }
            switch parts[0] {
            case "tear": rates.tear = p
            case "nak5": rates.nak5 = p
            case "noanswer": rates.noAnswer = p
            case "readonly": rates.readOnly = p
            case "unformatted": rates.unformatted = p
            case "wrongchip": rates.wrongChip = p
            case "multi": rates.multi = p
            case "clone": rates.clone = p
            default:
                throw bad(
                    "unknown fault '\(parts[0])'; kinds are tear, nak5, noanswer, readonly, unformatted, wrongchip, "
                        + "multi, clone")
            }
        }
        return rates
    }

    /// `04` followed by six bytes from `seed`.
    static func derivedUID(seed: UInt64) -> [UInt8] {
        var rng = SplitMix64(seed: seed)
        let bits = rng.next()
        return [0x04] + (0..<6).map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
    }

    /// The UID of the tag at `index` (0-based): `firstUID` with its last six bytes counted up as one number
    /// (bytes 1–6 of a 7-byte UID, 2–7 of a FeliCa IDm, whose first two stay the manufacturer code).
    public func uid(at index: Int) -> [UInt8] {
        if let type5 { return type5UID(at: index, chip: type5) }
        let prefix = firstUID.count - 6
        var value: UInt64 = 0
        for byte in firstUID[prefix...] { value = value << 8 | UInt64(byte) }
        value = (value &+ UInt64(index)) & 0xFFFF_FFFF_FFFF
        return Array(firstUID[..<prefix]) + (0..<6).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(5 - $0))) }
    }

    /// Every `sim:` chip name, in the order help texts list them: the simulator names the families publish
    /// (`ChipDescriptor.simulatorName`), family by family.
    public static var chipNames: [String] { descriptors.compactMap(\.simulatorName) }

    /// `Type 5 chips (sim:a, sim:b, …)`: the simulated chips of the family named `family`, for an error naming
    /// which chips an option is for.
    static func chips(of family: String) -> String {
        let label = TagFamilies.standard.named(family)?.displayName ?? family
        let names = descriptors.filter { $0.family == family }.compactMap(\.simulatorName).map { "sim:" + $0 }
        return "\(label) chips (\(names.joined(separator: ", ")))"
    }

    /// The descriptors of every family the simulator presents.
    static var descriptors: [ChipDescriptor] { TagFamilies.standard.descriptors }

    /// The chip a `sim:` spec without one presents.
    public static let defaultChip = ChipModel.ntag215

    /// The form `uid=` takes for the population's chip: its family's UID (a FeliCa IDm for Type 3).
    public var uidForm: UIDForm {
        type3 != nil ? Type3Family.idmForm : type5?.uidForm ?? type4?.uidForm ?? chip.uidForm
    }

    /// The faults of the tag at `index`, drawn from `faultRates` with a generator seeded by `seed`
    /// and `index`, so a run repeats exactly.
    public func faults(forTagAt index: Int) -> TagFaults {
        var rng = SplitMix64(seed: seed ^ (UInt64(index) &* 0xD6E8_FEB8_6659_FD93))
        var faults = TagFaults()
        let draws = (0..<7).map { _ in rng.next() }
        func hit(_ p: Double, _ draw: UInt64) -> Bool { p > 0 && Double(draw >> 11) / Double(1 << 53) < p }
        if hit(faultRates.tear, draws[0]) { faults.removedAfterExchanges = Int(rng.next() % 16) }
        if hit(faultRates.nak5, draws[1]) {
            let span = UInt64(min(chip.lastUserPage - chip.firstUserPage + 1, 12))
            faults.eepromErrorPages = [chip.firstUserPage + Int(rng.next() % span)]
        }
        if hit(faultRates.noAnswer, draws[2]) { faults.noAnswerExchanges = [1 + Int(rng.next() % 16)] }
        faults.preLocked = hit(faultRates.readOnly, draws[3])
        faults.unformatted = hit(faultRates.unformatted, draws[4])
        if hit(faultRates.wrongChip, draws[5]) {
            let others = ChipModel.allCases.filter { $0 != chip }
            faults.wrongChip = others[Int(rng.next() % UInt64(others.count))]
        }
        faults.secondTag = hit(faultRates.multi, draws[6])
        faults.seed = rng.next()
        // Drawn last, so the faults above stay what they were for a given seed before `clone` existed.
        if hit(faultRates.clone, rng.next()) { faults.identity = .uid }
        if identityFaults.indices.contains(index), let fault = identityFaults[index] { faults.identity = fault }
        if let entry = plan.entry(forTagAt: index) {
            switch entry.kind {
            case .silence: faults.noAnswerExchanges.insert(entry.exchange)
            case .answer(let fault): faults.answerFaults[entry.exchange] = fault
            }
        }
        return faults
    }
}
