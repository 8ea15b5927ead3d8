import AuditCore
import Foundation

/// `auditbench audit FILE [--ruleset NAME] [--iterations K] [--print]`: parse alone vs
/// parse + audit with a rule set, in process; the rules' cost as a share of parse time —
/// of the parse as the daemon runs it (two threads from 1 MiB) and of the same parse on
/// one thread (the parsing work itself).
enum AuditBenchmark {
    static func run(path: String, ruleSetName: String, iterations: Int, printReport: Bool) {
        guard let data = FileManager.default.contents(atPath: path) else {
            print("cannot read \(path)")
            exit(2)
        }
        let bytes = [UInt8](data)
        let rulesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Rules").path
        let library: RuleSetLibrary
        do {
            library = try RuleSetLibrary.load(directories: [ProcessInfo.processInfo.environment["AUDITD_RULES"] ?? rulesDirectory])
        } catch {
            print("rule sets: \(error)")
            exit(2)
        }
        let parser = SnapshotParser(options: .init(maxBytes: Int.max))
        // The same parse on one thread: the work the rules are compared with (issue 3),
        // whatever the second thread saves of the wall time.
        let oneThreadParser = SnapshotParser(options: .init(maxBytes: Int.max, twoThreadBytes: .max))
        guard let ruleSet = library[ruleSetName] else {
            print("unknown rule set \(ruleSetName); have \(library.names)")
            exit(2)
        }
        if let perRule = ProcessInfo.processInfo.environment["AUDITBENCH_PER_RULE"], ruleSet.entries.contains(where: { $0.id == perRule }) {
            guard let snapshot = try? parser.parse(bytes) else {
                print("\(path) does not parse")
                exit(2)
            }
            timeRules(perRule, of: ruleSet, on: snapshot, iterations: iterations)
            return
        }
        // AUDITBENCH_SEQUENTIAL=1 runs the rules on one thread (for instruction counts under
        // callgrind, which follows one thread's calls).
        let concurrent = ProcessInfo.processInfo.environment["AUDITBENCH_SEQUENTIAL"] == nil
        var parseBest = Double.infinity, auditBest = Double.infinity, renderBest = Double.infinity
        var writtenBest = Double.infinity
        var report: AuditReport?
        var elements = 0
        var reportBytes = 0
        // Each run's own ratio: on a shared machine whole runs speed up and slow down
        // together, so the median of per-run ratios is steadier than a ratio of bests.
        var ratios: [Double] = []
        var parseTimes: [Double] = [], auditTimes: [Double] = []
        var oneThreadBest = Double.infinity
        var oneThreadRatios: [Double] = []
        for _ in 0..<iterations {
            let oneThreadStart = DispatchTime.now().uptimeNanoseconds
            _ = try? oneThreadParser.parse(bytes)
            let oneThread = Double(DispatchTime.now().uptimeNanoseconds - oneThreadStart) / 1e6
            oneThreadBest = min(oneThreadBest, oneThread)
            let start = DispatchTime.now().uptimeNanoseconds
            guard let snapshot = try? parser.parse(bytes) else {
                print("parse failed")
                exit(1)
            }
            let parsed = DispatchTime.now().uptimeNanoseconds
            let result = bytes.withUnsafeBytes { Auditor.audit(snapshot, ruleSet: ruleSet, source: $0, concurrent: concurrent) }
            let audited = DispatchTime.now().uptimeNanoseconds
            let rendered = result.rendered()
            let written = DispatchTime.now().uptimeNanoseconds
            reportBytes = rendered.count
            parseBest = min(parseBest, Double(parsed - start) / 1e6)
            auditBest = min(auditBest, Double(audited - parsed) / 1e6)
            renderBest = min(renderBest, Double(written - audited) / 1e6)
            writtenBest = min(writtenBest, result.findingsMilliseconds)
            ratios.append(Double(written - parsed) / Double(max(parsed - start, 1)))
            oneThreadRatios.append(Double(written - parsed) / 1e6 / max(oneThread, 1e-6))
            parseTimes.append(Double(parsed - start) / 1e6)
            auditTimes.append(Double(written - parsed) / 1e6)
            report = result
            elements = snapshot.elements.count
        }
        if printReport, let report {
            FileHandle.standardOutput.write(Data((report.json.rendered(pretty: true) + "\n").utf8))
            return
        }
        print("file: \(path) (\(bytes.count) bytes, \(elements) elements), rule set \(ruleSetName)")
        print(Timing.row(bytes.count >= SnapshotParser.Options().twoThreadBytes ? "parse (two threads)" : "parse", parseBest))
        print(Timing.row("parse on one thread", oneThreadBest))
        print(Timing.row("rules (\(ruleSet.entries.count), \(concurrent ? "concurrent" : "one thread"))", auditBest))
        print(Timing.row("report rendered (JSON bytes)", renderBest))
        print(String(format: "rules / parse: %.2f", auditBest / parseBest))
        print(String(format: "rules + report / parse: %.2f", (auditBest + renderBest) / parseBest))
        oneThreadRatios.sort()
        print(
            String(
                format: "rules + report / parse on one thread: %.2f; median of %d runs: %.2f", (auditBest + renderBest) / oneThreadBest,
                oneThreadRatios.count, oneThreadRatios[oneThreadRatios.count / 2]))
        ratios.sort()
        parseTimes.sort()
        auditTimes.sort()
        print(String(format: "median ms: parse %.2f, rules + report %.2f", parseTimes[parseTimes.count / 2], auditTimes[auditTimes.count / 2]))
        print(
            String(
                format: "rules + report / parse, median of %d runs: %.2f (range %.2f–%.2f)", ratios.count,
                ratios[ratios.count / 2], ratios.first ?? 0, ratios.last ?? 0))
        print(String(format: "µs per element, parse + rules: %.3f", (parseBest + auditBest) * 1000 / Double(max(elements, 1))))
        if let report {
            print("findings: \(report.findings.count), incomplete: \(report.incomplete.count), report: \(reportBytes) bytes")
            // The findings once the rules were done (ordered, placed, written), per finding.
            print(
                String(
                    format: "findings written: %.2f ms of the rules' %.2f (best runs), %.3f µs per finding", writtenBest, auditBest,
                    writtenBest * 1000 / Double(max(report.findings.count, 1))))
        }
        if let perRule = ProcessInfo.processInfo.environment["AUDITBENCH_PER_RULE"], let snapshot = try? parser.parse(bytes) {
            timeRules(perRule, of: ruleSet, on: snapshot, iterations: iterations)
        }
    }

    /// `AUDITBENCH_PER_RULE=1`: each rule of the set alone, best of three, and the
    /// transcript built afresh (the rules that read it share one). `AUDITBENCH_PER_RULE=RULE-ID`:
    /// that rule alone, `iterations` times, and nothing else (a profile of one rule).
    static func timeRules(_ perRule: String, of ruleSet: RuleSet, on snapshot: Snapshot, iterations: Int) {
        let only = ruleSet.entries.first { $0.id == perRule }
        if only == nil {
            var transcriptBest = Double.infinity
            for _ in 0..<max(3, iterations) {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = Transcript(snapshot)
                transcriptBest = min(transcriptBest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            print(Timing.row("  transcript (one thread)", transcriptBest))
        }
        for entry in only.map({ [$0] }) ?? ruleSet.entries {
            let single = RuleSet(name: entry.id, entries: [entry])
            var best = Double.infinity
            for _ in 0..<(only == nil ? 3 : max(3, iterations)) {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = Auditor.audit(snapshot, ruleSet: single, concurrent: false)
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            print(Timing.row("  " + entry.id, best))
        }
    }
}
