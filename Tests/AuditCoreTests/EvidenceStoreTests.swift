import AuditCore
@testable import AuditRules
import XCTest

/// Findings keep their evidence encoded in their rule run's store: what comes back out —
/// the entries, one value, the JSON object a report writes, a message filled from it — is
/// what the `JSON` values they were made from say. Random evidence, nested and hostile
/// strings included, many findings sharing one store.
final class EvidenceStoreTests: XCTestCase {
    static let keys: [EvidenceKey] = [.ratio, .required, .role, .label, .frame, .other, .count, .names, .line, .kind]

    func value(_ random: inout SeededGenerator, depth: Int = 0) -> JSON {
        switch random.below(depth > 2 ? 5 : 7) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return .int(Int(truncatingIfNeeded: random.next()) >> random.below(64))
        case 3:
            let specials: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 4.5, 1e300, 2.9999999]
            return .number(random.below(4) == 0 ? specials[random.below(specials.count)] : Double(random.below(100_000)) / 7)
        case 4:
            let pieces = ["Row", " ", "\"", "\\", "\n", "é", "😀", "\u{0}", "button", "…", String(repeating: "x", count: 40)]
            return .string((0..<random.below(6)).map { _ in pieces[random.below(pieces.count)] }.joined())
        case 5: return .array((0..<random.below(4)).map { _ in value(&random, depth: depth + 1) })
        default: return .object((0..<random.below(4)).map { index in ("m\(index)\"", value(&random, depth: depth + 1)) })
        }
    }

    func testWhatComesOutIsWhatWentIn() {
        var random = SeededGenerator()
        let store = EvidenceStore(capacity: 16)
        var made: [(Evidence, Range<Int>)] = []
        for _ in 0..<2_000 {
            var evidence: Evidence = []
            for key in Self.keys.shuffled(using: &random).prefix(random.below(5)) { evidence.append((key, value(&random))) }
            made.append((evidence, store.append(evidence)))
        }
        for (evidence, range) in made {
            let finding = Finding(
                kind: FindingKind(ruleID: "r", resultID: "x", severity: .error, wcag: [], messageSource: .literal("m")), element: 3,
                evidence: range, in: store)
            let back = finding.evidence
            XCTAssertEqual(back.map(\.0), evidence.map(\.0), "seed \(random.seed)")
            XCTAssertTrue(zip(back, evidence).allSatisfy { same($0.1, $1.1) }, "seed \(random.seed): \(back) vs \(evidence)")
            for key in Self.keys {
                let expected = evidence.first { $0.0 == key }?.1
                XCTAssertEqual(finding.evidence(key) == nil, expected == nil, "seed \(random.seed)")
                if let expected, let found = finding.evidence(key) { XCTAssertTrue(same(found, expected), "seed \(random.seed)") }
            }
            var written: [UInt8] = []
            finding.writeEvidence(to: &written)
            var expected: [UInt8] = []
            JSON.object(evidence.map { ($0.0.rawValue, $0.1) }).write(to: &expected)
            XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: expected, as: UTF8.self), "seed \(random.seed)")
        }
    }

    /// A message filled from the store reads as the template says its values read.
    func testMessagesAreFilledAsTheValuesRead() {
        var random = SeededGenerator()
        let template = MessageTemplate(#"${role} "${label}" is ${ratio}:1, ${count} of ${names} (${frame}) ${other}$"#)
        for _ in 0..<1_000 {
            var evidence: Evidence = []
            for key in [EvidenceKey.role, .label, .ratio, .count, .names, .frame].shuffled(using: &random).prefix(random.below(7)) {
                evidence.append((key, key == .role && random.below(2) == 0 ? .string(["button", "other", "cell"][random.below(3)]) : value(&random)))
            }
            func reads(_ key: EvidenceKey) -> String {
                switch evidence.first(where: { $0.0 == key })?.1 {
                case .string(let text)? where key == .role: MessageTemplate.roleWord(text)
                case .string(let text)?: text
                case .int(let number)?: String(number)
                case .number(let number)? where number.isFinite: decimal(number)
                case let value?: MessageTemplate.text(of: value)
                case nil: "?"
                }
            }
            let expected = "\(reads(.role)) \"\(reads(.label))\" is \(reads(.ratio)):1, \(reads(.count)) of \(reads(.names)) (\(reads(.frame))) ?$"
            let finding = Finding(
                ruleID: "r", resultID: "x", severity: .warning, wcag: ["1.4.3"], element: nil, evidence: evidence,
                messageSource: .template(template))
            XCTAssertEqual(finding.message, expected, "seed \(random.seed)")
            var json: [UInt8] = []
            finding.writeMessageJSON(to: &json)
            XCTAssertEqual(try JSONParser.parse(json), .string(expected), "seed \(random.seed)")
        }
    }

    func decimal(_ number: Double) -> String {
        var bytes: [UInt8] = []
        DecimalWriter.append(number, decimals: 3, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Equal, NaN included (the encoding keeps a number's bits).
    func same(_ first: JSON, _ second: JSON) -> Bool {
        switch (first, second) {
        case let (.number(a), .number(b)): a.bitPattern == b.bitPattern
        case let (.array(a), .array(b)): a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && same($0.1, $1.1) }
        default: first == second
        }
    }
}
