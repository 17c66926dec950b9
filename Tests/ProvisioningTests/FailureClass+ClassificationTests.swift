import NFCTags
import Provisioning
import Testing

@Test(arguments: [
    (TransportError.noAnswer, FailureClass.timeout), (.nak(5), .nak), (.tagLost, .tagLost),
    (.transport("gone"), .transport), (.invalidResponse("short"), .transport),
])
func transportErrorsClassify(error: TransportError, expected: FailureClass) {
    #expect(FailureClass(classifying: error) == expected)
}

@Test func type2ErrorsClassifyByCodeAndCause() {
    let table: [(Type2Error.Code, FailureClass)] = [
        (.notNDEF, .notNDEF), (.unsupportedCC, .notNDEF), (.readOnly, .readOnly), (.capacity, .capacity),
        (.verifyMismatch, .verifyMismatch), (.lockFailed, .lockFailed), (.unknownChip, .wrongChip),
        (.invalidResponse, .transport),
    ]
    for (code, expected) in table {
        #expect(FailureClass(classifying: Type2Error(code, "x")) == expected, "\(code)")
    }
    let wrapped = Type2Error(.authenticationFailed, "PWD_AUTH refused", cause: TransportError.noAnswer)
    #expect(FailureClass(classifying: wrapped) == .timeout)
    struct Other: Error {}
    #expect(FailureClass(classifying: Other()) == nil)
}
