internal import CPKCS11
import Support

/// The C type `CK_FUNCTION_LIST_PTR`: a module's table of entry points.
typealias PKCS11FunctionListPointer = UnsafeMutablePointer<CK_FUNCTION_LIST>

/// `PKCS11Functions` over a loaded module's `CK_FUNCTION_LIST`: the only code that makes PKCS #11 calls.
///
/// `@unchecked Sendable`: the function list is the module's immutable table, and the module was initialised with
/// `CKF_OS_LOCKING_OK`, so the library locks for itself and may be called from any thread (PKCS #11 v2.40 base
/// §5.4, `C_Initialize`). Sessions are still each used from one actor's queue (one active operation per
/// session). Every entry used here is checked to be present when the module is loaded (`PKCS11Module`).
struct PKCS11FunctionList: PKCS11Functions, @unchecked Sendable {
    let list: PKCS11FunctionListPointer

    /// The entries this layer calls, by name, each `nil` when the module leaves it out.
    static func missingEntries(_ list: PKCS11FunctionListPointer) -> [String] {
        let f = list.pointee
        let present: [(String, Bool)] = [
            ("C_Initialize", f.C_Initialize != nil), ("C_Finalize", f.C_Finalize != nil),
            ("C_GetSlotList", f.C_GetSlotList != nil), ("C_GetTokenInfo", f.C_GetTokenInfo != nil),
            ("C_GetMechanismList", f.C_GetMechanismList != nil), ("C_GetMechanismInfo", f.C_GetMechanismInfo != nil),
            ("C_OpenSession", f.C_OpenSession != nil),
            ("C_CloseSession", f.C_CloseSession != nil), ("C_Login", f.C_Login != nil),
            ("C_FindObjectsInit", f.C_FindObjectsInit != nil), ("C_FindObjects", f.C_FindObjects != nil),
            ("C_FindObjectsFinal", f.C_FindObjectsFinal != nil),
            ("C_GetAttributeValue", f.C_GetAttributeValue != nil), ("C_EncryptInit", f.C_EncryptInit != nil),
            ("C_Encrypt", f.C_Encrypt != nil), ("C_DecryptInit", f.C_DecryptInit != nil),
            ("C_Decrypt", f.C_Decrypt != nil), ("C_SignInit", f.C_SignInit != nil), ("C_Sign", f.C_Sign != nil),
            ("C_CreateObject", f.C_CreateObject != nil), ("C_GenerateKey", f.C_GenerateKey != nil),
        ]
        return present.filter { !$0.1 }.map(\.0)
    }

    private static func check(_ rv: CK_RV) throws(PKCS11Status) {
        guard rv == CKR_OK else { throw PKCS11Status(rawValue: UInt(rv)) }
    }

    func slotList() throws(PKCS11Status) -> [UInt] {
        var count: CK_ULONG = 0
        try Self.check(list.pointee.C_GetSlotList(CK_BBOOL(CK_TRUE), nil, &count))
        var slots = [CK_SLOT_ID](repeating: 0, count: Int(count))
        try Self.check(list.pointee.C_GetSlotList(CK_BBOOL(CK_TRUE), &slots, &count))
        return Array(slots.prefix(Int(count)))
    }

    func tokenInfo(slot: UInt) throws(PKCS11Status) -> PKCS11TokenInfo {
        var info = CK_TOKEN_INFO()
        try Self.check(list.pointee.C_GetTokenInfo(slot, &info))
        func text<T>(_ field: T) -> String {
            let bytes = withUnsafeBytes(of: field) { Array($0) }
            let trimmed = bytes.reversed().drop { $0 == 0x20 || $0 == 0 }.reversed()
            return String(decoding: trimmed, as: UTF8.self)
        }
        return PKCS11TokenInfo(
            label: text(info.label), manufacturer: text(info.manufacturerID), model: text(info.model),
            serial: text(info.serialNumber))
    }

    func mechanismList(slot: UInt) throws(PKCS11Status) -> [UInt] {
        var count: CK_ULONG = 0
        try Self.check(list.pointee.C_GetMechanismList(slot, nil, &count))
        var mechanisms = [CK_MECHANISM_TYPE](repeating: 0, count: Int(count))
        try Self.check(list.pointee.C_GetMechanismList(slot, &mechanisms, &count))
        return Array(mechanisms.prefix(Int(count)))
    }

    func mechanismInfo(slot: UInt, mechanism: UInt) throws(PKCS11Status) -> PKCS11MechanismInfo {
        var info = CK_MECHANISM_INFO()
        try Self.check(list.pointee.C_GetMechanismInfo(slot, mechanism, &info))
        return PKCS11MechanismInfo(minKeySize: info.ulMinKeySize, maxKeySize: info.ulMaxKeySize, flags: info.flags)
    }

    func openSession(slot: UInt, readWrite: Bool) throws(PKCS11Status) -> UInt {
        var session: CK_SESSION_HANDLE = 0
        let flags = CK_FLAGS(CKF_SERIAL_SESSION) | (readWrite ? CK_FLAGS(CKF_RW_SESSION) : 0)
        try Self.check(list.pointee.C_OpenSession(slot, flags, nil, nil, &session))
        return session
    }

    func closeSession(_ session: UInt) throws(PKCS11Status) {
        try Self.check(list.pointee.C_CloseSession(session))
    }

    func login(session: UInt, pin: [UInt8]) throws(PKCS11Status) {
        var copy = pin
        defer { SecretBytes.wipe(&copy) }
        let rv = copy.withUnsafeMutableBufferPointer {
            list.pointee.C_Login(session, CK_USER_TYPE(CKU_USER), $0.baseAddress, CK_ULONG($0.count))
        }
        guard rv != CKR_USER_ALREADY_LOGGED_IN else { return }  // login is per application and token
        try Self.check(rv)
    }

    func findObjects(session: UInt, template: [PKCS11Attribute]) throws(PKCS11Status) -> [UInt] {
        let rv = Self.withTemplate(template) { list.pointee.C_FindObjectsInit(session, $0, $1) }
        try Self.check(rv)
        var found: [UInt] = []
        var batch = [CK_OBJECT_HANDLE](repeating: 0, count: 16)
        while true {
            var count: CK_ULONG = 0
            let rv = list.pointee.C_FindObjects(session, &batch, CK_ULONG(batch.count), &count)
            guard rv == CKR_OK else {
                _ = list.pointee.C_FindObjectsFinal(session)
                throw PKCS11Status(rawValue: UInt(rv))
            }
            found += batch.prefix(Int(count))
            if count == 0 { break }
        }
        try Self.check(list.pointee.C_FindObjectsFinal(session))
        return found
    }

    func attribute(session: UInt, object: UInt, type: UInt) throws(PKCS11Status) -> [UInt8]? {
        var attribute = CK_ATTRIBUTE(type: type, pValue: nil, ulValueLen: 0)
        let rv = list.pointee.C_GetAttributeValue(session, object, &attribute, 1)
        if rv == CKR_ATTRIBUTE_SENSITIVE || rv == CKR_ATTRIBUTE_TYPE_INVALID { return nil }
        try Self.check(rv)
        guard attribute.ulValueLen != unavailableInformation else { return nil }
        var value = [UInt8](repeating: 0, count: Int(attribute.ulValueLen))
        let second = value.withUnsafeMutableBytes { buffer in
            attribute.pValue = buffer.baseAddress
            return list.pointee.C_GetAttributeValue(session, object, &attribute, 1)
        }
        try Self.check(second)
        return Array(value.prefix(Int(attribute.ulValueLen)))
    }

    func encrypt(session: UInt, mechanism: PKCS11Mechanism, key: UInt, data: [UInt8]) throws(PKCS11Status) -> [UInt8] {
        try Self.check(Self.withMechanism(mechanism) { list.pointee.C_EncryptInit(session, $0, key) })
        return try Self.oneShot(data, outputCount: data.count + 16) { list.pointee.C_Encrypt(session, $0, $1, $2, $3) }
    }

    func decrypt(session: UInt, mechanism: PKCS11Mechanism, key: UInt, data: [UInt8]) throws(PKCS11Status) -> [UInt8] {
        try Self.check(Self.withMechanism(mechanism) { list.pointee.C_DecryptInit(session, $0, key) })
        return try Self.oneShot(data, outputCount: data.count + 16) { list.pointee.C_Decrypt(session, $0, $1, $2, $3) }
    }

    func sign(session: UInt, mechanism: PKCS11Mechanism, key: UInt, data: [UInt8]) throws(PKCS11Status) -> [UInt8] {
        try Self.check(Self.withMechanism(mechanism) { list.pointee.C_SignInit(session, $0, key) })
        return try Self.oneShot(data, outputCount: 64) { list.pointee.C_Sign(session, $0, $1, $2, $3) }
    }

    func createObject(session: UInt, template: [PKCS11Attribute]) throws(PKCS11Status) -> UInt {
        var handle: CK_OBJECT_HANDLE = 0
        try Self.check(Self.withTemplate(template) { list.pointee.C_CreateObject(session, $0, $1, &handle) })
        return handle
    }

    func generateKey(
        session: UInt, mechanism: PKCS11Mechanism, template: [PKCS11Attribute]
    ) throws(PKCS11Status) -> UInt {
        var handle: CK_OBJECT_HANDLE = 0
        let rv = Self.withMechanism(mechanism) { mechanismPointer in
            Self.withTemplate(template) { list.pointee.C_GenerateKey(session, mechanismPointer, $0, $1, &handle) }
        }
        try Self.check(rv)
        return handle
    }

    /// Runs a one-part operation (`C_Encrypt`, `C_Decrypt`, `C_Sign`) over `data` with an output buffer of
    /// `outputCount` bytes, large enough that `CKR_BUFFER_TOO_SMALL` (which leaves the operation active) cannot
    /// happen. An empty input still gets a non-NULL pointer: SoftHSM2 refuses NULL with `CKR_ARGUMENTS_BAD`
    /// and then keeps the operation active (docs/reference/pkcs11.md §4).
    private static func oneShot(
        _ data: [UInt8], outputCount: Int,
        _ call: (UnsafeMutablePointer<UInt8>, CK_ULONG, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<CK_ULONG>)
            -> CK_RV
    ) throws(PKCS11Status) -> [UInt8] {
        var input = data.isEmpty ? [UInt8(0)] : data
        var output = [UInt8](repeating: 0, count: outputCount)
        var length = CK_ULONG(outputCount)
        let rv = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                // Both buffers hold at least one byte, so their base addresses exist.
                guard let input = inputBuffer.baseAddress, let output = outputBuffer.baseAddress else {
                    return CK_RV(CKR_HOST_MEMORY)
                }
                return call(input, CK_ULONG(data.count), output, &length)
            }
        }
        try check(rv)
        return Array(output.prefix(Int(length)))
    }

    /// Calls `body` with `mechanism` as a `CK_MECHANISM` whose parameter points at a copy of its bytes.
    private static func withMechanism(
        _ mechanism: PKCS11Mechanism, _ body: (UnsafeMutablePointer<CK_MECHANISM>) -> CK_RV
    ) -> CK_RV {
        var parameter = mechanism.parameter
        return parameter.withUnsafeMutableBytes { bytes in
            var raw = CK_MECHANISM(
                mechanism: mechanism.type, pParameter: bytes.isEmpty ? nil : bytes.baseAddress,
                ulParameterLen: CK_ULONG(bytes.count))
            return body(&raw)
        }
    }

    /// Calls `body` with `template` as a `CK_ATTRIBUTE` array and its count; the value copies live as long.
    private static func withTemplate(
        _ template: [PKCS11Attribute], _ body: (UnsafeMutablePointer<CK_ATTRIBUTE>?, CK_ULONG) -> CK_RV
    ) -> CK_RV {
        let total = template.reduce(0) { $0 + $1.value.count }
        var storage = [UInt8](repeating: 0, count: max(total, 1))
        defer { SecretBytes.wipe(&storage) }
        return storage.withUnsafeMutableBytes { bytes in
            var offset = 0
            var raw: [CK_ATTRIBUTE] = []
            for attribute in template {
                let start = bytes.baseAddress.map { $0 + offset }
                for (index, byte) in attribute.value.enumerated() { bytes[offset + index] = byte }
                raw.append(
                    CK_ATTRIBUTE(type: attribute.type, pValue: start, ulValueLen: CK_ULONG(attribute.value.count)))
                offset += attribute.value.count
            }
            return raw.withUnsafeMutableBufferPointer { body($0.baseAddress, CK_ULONG($0.count)) }
        }
    }
}

/// `CK_UNAVAILABLE_INFORMATION` (`(CK_ULONG)-1`, a cast macro that does not import): the length a token reports
/// for an attribute it will not give.
let unavailableInformation = UInt.max
