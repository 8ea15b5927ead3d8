import AuditCommandLine
import XCTest

/// Options declared and read through one typed handle (issue 56), as both `auditd` and
/// `auditctl` declare theirs: a value is converted and checked when the line is parsed,
/// and read as its type — never looked up by a string.
final class OptionTests: XCTestCase {
    static let jobs = Option<Int>("--jobs", short: "-j", valueName: "N", help: "snapshots at once", in: 1...64)
    static let density = Option<Double>("--density", valueName: "DPR", help: "pixels per dp", in: 0.1...16)
    static let format = Option<String>("--format", short: "-f", valueName: "FORMAT", help: "text or json", choices: ["text", "json"])
    static let rules = Option<String>("--rules", valueName: "DIR", help: "a rule directory", repeatable: true)
    static let uid = Option<UInt32>("--allow-uid", valueName: "UID", help: "a user")
    static let mode = Option<String>(
        "--socket-mode", valueName: "MODE", help: "octal", expected: "an octal mode such as 0660", accepts: { UInt32($0, radix: 8) != nil })
    static let quiet = Flag("--quiet", short: "-q", help: "say less")
    static let all = [jobs.spec, density.spec, format.spec, rules.spec, uid.spec, mode.spec, quiet.spec]

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ArgumentParser.parse(arguments, options: Self.all, program: "tool", command: "tool")
    }

    func message(_ arguments: [String]) -> String? {
        do throws(UsageError) {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    func testValuesAreReadAsTheirTypes() throws {
        let parsed = try parse(["-j", "8", "--density=2.625", "-f", "json", "--rules", "a", "--rules", "b", "-q", "--allow-uid", "1000", "file.xml", "--", "-x"])
        XCTAssertEqual(parsed[Self.jobs], 8)
        XCTAssertEqual(parsed[Self.density], 2.625)
        XCTAssertEqual(parsed[Self.format], "json")
        XCTAssertEqual(parsed.all(Self.rules), ["a", "b"])
        XCTAssertEqual(parsed[Self.uid], 1000)
        XCTAssertTrue(parsed[Self.quiet])
        XCTAssertNil(parsed[Self.mode])
        XCTAssertFalse(parsed.has(Self.mode))
        XCTAssertEqual(parsed.operands, ["file.xml", "-x"])
    }

    func testABadValueIsRefusedWithWhatWasExpected() {
        XCTAssertEqual(message(["--jobs", "0"]), "option --jobs needs a whole number from 1 to 64, not '0'")
        XCTAssertEqual(message(["--jobs", "many"]), "option --jobs needs a whole number from 1 to 64, not 'many'")
        XCTAssertEqual(message(["--density", "nan"]), "option --density needs a number from 0.1 to 16.0, not 'nan'")
        XCTAssertEqual(message(["--allow-uid", "-1"]), "option --allow-uid needs a numeric id from 0 to 4294967295, not '-1'")
        XCTAssertEqual(message(["--socket-mode", "9"]), "option --socket-mode needs an octal mode such as 0660, not '9'")
        XCTAssertEqual(message(["--format", "jsno"]), "'jsno' is not a valid value for '--format'; expected one of: text, json (did you mean 'json'?)")
    }

    func testUsageMistakesSayWhatToDo() {
        XCTAssertEqual(message(["--josb", "2"]), "unknown option '--josb' for 'tool'; did you mean '--jobs'?")
        XCTAssertEqual(message(["--jobs"]), "option '--jobs' needs a value (N)")
        XCTAssertEqual(message(["--quiet=yes"]), "option '--quiet' takes no value")
        XCTAssertEqual(message(["-j", "2", "-j", "3"]), "option '--jobs' given twice")
    }

    /// Help and the parser read one declaration.
    func testTheDeclarationIsTheHelp() {
        XCTAssertEqual(Self.jobs.spec.name, "--jobs")
        XCTAssertEqual(Self.jobs.spec.short, "-j")
        XCTAssertEqual(Self.jobs.spec.valueName, "N")
        XCTAssertEqual(Self.jobs.spec.help, "snapshots at once")
        XCTAssertNil(Self.quiet.spec.valueName)
        XCTAssertEqual(Self.format.spec.choices, ["text", "json"])
    }
}
