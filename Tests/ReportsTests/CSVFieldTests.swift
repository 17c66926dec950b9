import Testing

@testable import Reports

@Test(arguments: ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1+1", "\r=1+1", "\r\n=1+1"])
func formulaStartsAreDefused(_ text: String) {
    let escaped = CSVField.escape(text)
    // Unquoted, or quoted with the guard inside the quotes: the cell's text starts with '.
    let cell = escaped.hasPrefix("\"") ? String(escaped.dropFirst()) : escaped
    #expect(cell.hasPrefix("'"), "\(escaped.debugDescription)")
}

@Test func plainFieldsAreLeftAloneAndQuotedWhenNeeded() {
    #expect(CSVField.escape("SKU-1") == "SKU-1")
    #expect(CSVField.escape("a,b") == "\"a,b\"")
    #expect(CSVField.escape("say \"hi\"") == "\"say \"\"hi\"\"\"")
    #expect(CSVField.line(["a", "\t=x"]) == "a,\"'\t=x\"\n")
}

/// A `;`-delimited spreadsheet would start a new cell, and a formula, after the `;` of an unquoted field.
@Test func aSemicolonSerialIsQuotedSoItsFormulaStaysInsideTheCell() {
    #expect(CSVField.escape("A;=HYPERLINK(1)|") == "\"A;=HYPERLINK(1)|\"")
    #expect(CSVField.line(["04A1", "A;=HYPERLINK(1)|"]) == "04A1,\"A;=HYPERLINK(1)|\"\n")
}

@Test(arguments: [",", ";", "\"", "\t", "\r", "\n"])
func everyDelimiterQuoteOrLineBreakInsideAFieldQuotesIt(_ special: String) {
    let escaped = CSVField.escape("A" + special + "=1")
    let doubled = special == "\"" ? "\"\"" : special
    #expect(escaped == "\"A" + doubled + "=1\"", "\(escaped.debugDescription)")
}
