import AuditCore
import Foundation
import XCTest

/// Paths and helpers shared by the tests.
enum TestSupport {
    /// The package root (this file is Tests/AuditCoreTests/TestSupport.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Real dumps of other people's apps, with their provenance (Tests/Fixtures/README.md).
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")
    static let corpus = fixtures.appendingPathComponent("corpus")
    static let examples = packageRoot.appendingPathComponent("Examples")

    static func parse(_ xml: String, density: Double? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Snapshot {
        try SnapshotParser(options: .init(androidDensity: density)).parse(xml)
    }

    static func parseError(_ xml: String) -> SnapshotError? {
        do {
            _ = try SnapshotParser().parse(xml)
            return nil
        } catch {
            return error
        }
    }

    static func parseError(bytes: [UInt8], options: SnapshotParser.Options = .init()) -> SnapshotError? {
        do {
            _ = try SnapshotParser(options: options).parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    /// A native snapshot around the given element markup: the same white 390×844 window the
    /// rules' examples use (settings on line 2, the markup from line 4).
    static func native(_ body: String, settings: String = "") -> String {
        RuleExample(body, settings: settings).xml
    }

    /// The index of the element with `id`.
    static func index(_ snapshot: Snapshot, _ id: String) -> Int? {
        snapshot.elements.indices.first { snapshot.text(snapshot.elements[$0].id) == id }
    }
}

/// SplitMix64: the tests' random numbers, from a seed that is printed, so a failure seen
/// once can be repeated (`AUDITD_TEST_SEED=N swift test --filter …`).
struct SeededGenerator: RandomNumberGenerator {
    /// The seed it started from, for failure messages.
    let seed: UInt64
    private var numbers: SplitMix64

    /// The seed from `$AUDITD_TEST_SEED`, else the clock; printed with `test`'s name.
    init(test: String = #function) {
        let seed =
            ProcessInfo.processInfo.environment["AUDITD_TEST_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970 * 1000)
        print("\(test): seed \(seed) (AUDITD_TEST_SEED=\(seed) repeats it)")
        self.seed = seed
        numbers = SplitMix64(seed: seed)
    }

    /// A number from 0 to `bound - 1`.
    mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<max(1, bound), using: &self) }

    mutating func next() -> UInt64 { numbers.next() }
}

extension TestSupport {
    /// A rule example's snapshot, with its screenshot attached when it has one.
    static func snapshot(of example: RuleExample) throws -> Snapshot {
        let snapshot = try SnapshotParser().parse(example.xml)
        guard let screenshot = example.screenshot else { return snapshot }
        let attached = try snapshot.attaching(screenshot.image(width: snapshot.width ?? 390, height: snapshot.height ?? 844))
        return screenshot.recognition.map { attached.recognizing($0) } ?? attached
    }
}

extension TestSupport {
    /// The id of the element a finding is on, when it has one.
    static func id(of placed: AuditReport.Located, in snapshot: Snapshot) -> String? {
        placed.finding.element.flatMap { snapshot.node($0).id }
    }
}
