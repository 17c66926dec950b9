import Ledger
import Testing

@Test func descriptionComesFromSQLite() {
    #expect(SQLiteResultCode.busy.description == "database is locked (5)")
    #expect(SQLiteResultCode.constraint.description.hasPrefix("constraint failed"))
}

@Test func primaryPatternMatchesItsExtendedCodes() {
    #expect(SQLiteResultCode.constraint ~= .constraintUnique)
    #expect(SQLiteResultCode.constraint ~= .constraintTrigger)
    #expect(SQLiteResultCode.busy ~= .busySnapshot)
    #expect(SQLiteResultCode.constraintUnique.primary == .constraint)
    #expect(SQLiteResultCode.constraintUnique.rawValue == 2067)
}

@Test func patternsDoNotMatchAcrossFamiliesOrBetweenExtendedCodes() {
    #expect(!(SQLiteResultCode.busy ~= .constraintUnique))
    #expect(!(SQLiteResultCode.constraintCheck ~= .constraintUnique))
    #expect(!(SQLiteResultCode.constraintUnique ~= .constraint))
    let matched: String
    switch SQLiteResultCode.cannotOpenIsDirectory {
    case .busy: matched = "busy"
    case .cannotOpen: matched = "cannotOpen"
    default: matched = "other"
    }
    #expect(matched == "cannotOpen")
}
