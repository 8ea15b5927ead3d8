@testable import AuditDaemonKit
@testable import AuditHistory
import AuditCore
import XCTest

/// The trend index reads journal lines without building them: its fields must be what a
/// full JSON parse of the same line gives, escapes, nesting and odd spacing included.
final class JournalLineFieldsTests: XCTestCase {
    static let names = JournalLineFields.names.keys.sorted()

    func fields(_ line: String) -> JournalLineFields? {
        Array(line.utf8).withUnsafeBytes { JournalLineFields($0) }
    }

    func value(_ fields: JournalLineFields, _ name: String) -> String? {
        JournalLineFields.names[name].flatMap { fields[$0] }
    }

    func testAgreesWithAFullParse() throws {
        let lines = [
            #"{"seq":1,"time":"2026-12-02T05:16:39.210Z","type":"audit","audit":"01M8","app":"com.example","build":null,"screen":"Home","summary":{"error":0},"transcript":{"reader":"talkback","digest":"a32bad223e99e47e","stops":2,"speech":["Back, button","{\"}]"]}}"#,
            #"{"seq":3,"time":"t","type":"finding","audit":"01M8","app":"a","build":"1842","screen":"Check\"out","rule":"label.missing","severity":"error","wcag":["4.1.2"],"element":null,"path":"/a/b[1]","line":14,"frame":[0,24.5,56,56],"message":"name \"x\" \\ {not} [an array] \u00e9 \u001f","evidence":{"role":"button","nested":{"a":[1,{"b":"}"}]}},"fingerprint":"2ab21d9f660a7aee","defect":"41c6914411898990"}"#,
            #"{ "seq" : 7 , "type" : "finding" , "audit" : "x" , "message" : "" , "fingerprint" : "f" }"#,
            #"{"seq":8,"type":"other","transcript":null}"#,
            #"{"seq":9,"type":"audit","audit":"x","transcript":{"speech":[ "Caf\u00e9, button" , "a\\b\"c", "rs \u001e here", 7, [], "" ],"digest":"d"}}"#,
            #"{"seq":10,"type":"audit","audit":"x","transcript":{"digest":"d","speech":[]}}"#,
            #"{"seq":11,"type":"finding","audit":"x","path":"/a\\","screen":"q\\\"x\\\\","evidence":{"k":"\\"},"message":"\"\"","fingerprint":"f"}"#,
        ]
        for line in lines {
            let parsed = try JSONParser.parse(line)
            let scanned = try XCTUnwrap(fields(line), line)
            XCTAssertEqual(scanned.seq, parsed["seq"]?.intValue, line)
            for name in Self.names {
                XCTAssertEqual(value(scanned, name), parsed[name]?.stringValue, "\(name) of \(line)")
            }
            XCTAssertEqual(scanned.digest, parsed["transcript"]?["digest"]?.stringValue, line)
            XCTAssertEqual(scanned.speech, parsed["transcript"]?["speech"]?.arrayValue?.compactMap(\.stringValue), line)
            // Packed from the raw bytes: the same values, separators never inside one.
            if parsed["type"]?.stringValue == "finding" {
                var packed: [UInt8] = []
                IndexPacking.append(scanned, to: &packed)
                let unpacked = try XCTUnwrap(IndexPacking.unpack(String(decoding: packed, as: UTF8.self)).first)
                XCTAssertEqual(unpacked.fingerprint, parsed["fingerprint"]?.stringValue)
                XCTAssertEqual(unpacked.rule, parsed["rule"]?.stringValue ?? "")
                let message = (parsed["message"]?.stringValue ?? "").replacingOccurrences(of: "\u{1F}", with: " ")
                XCTAssertEqual(unpacked.message, message)
            }
        }
    }

    func testRefusesWhatIsNotOneObject() {
        for line in ["", "[1]", #"{"seq":1,"#, #"{"seq":1,"type":"audit""#, #"{"type":"au"#, "nonsense", #"{"evidence":{"a":[}"#] {
            XCTAssertNil(fields(line), line)
        }
    }

    /// Speech packs as its stops, each U+001E in them a space, each ended by U+001E, and
    /// unpacks to those stops, whatever follows a separator; seeded.
    func testSpeechPacksAsTheStopsWithTheSeparatorReplaced() {
        let seed = ProcessInfo.processInfo.environment["AUDITD_TEST_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("\(#function): seed \(seed) (AUDITD_TEST_SEED=\(seed) repeats it)")
        var generator = SplitMix64(seed: seed)
        // Foundation's replacingOccurrences left a separator followed by a combining mark
        // in the stop (it matches composed character sequences), which split the stop in
        // two when unpacked.
        let pieces = ["Back", ", button", "\u{1E}", "é", "👍🏽", "\u{1F}", " ", "\u{1E}\u{301}", "Caf\u{E9}", "\u{301}"]
        for _ in 0..<200 {
            let stops = (0..<Int(generator.next() % 6)).map { _ in
                (0..<Int(generator.next() % 5)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            }
            let packed = IndexPacking.packSpeech(stops)
            let spaced = stops.map { String(String.UnicodeScalarView($0.unicodeScalars.map { $0 == "\u{1E}" ? " " : $0 })) }
            XCTAssertEqual(Array(packed.utf8), Array(spaced.map { $0 + "\u{1E}" }.joined().utf8), "seed \(seed): \(stops)")
            XCTAssertEqual(IndexPacking.unpackSpeech(packed).map { Array($0.utf8) }, spaced.map { Array($0.utf8) }, "seed \(seed): \(stops)")
        }
    }
}
