import AuditCore
import Foundation

/// `auditbench screenshot DUMP IMAGE [--iterations K] [--floor MS]`: the whole audit of a
/// snapshot with its screenshot — parse, decode, map, every rule of `android-default`
/// (colours from the pixels), render — against the decode of the same image alone by a
/// small C program (`Benchmarks/screenshot/pngdecode.c`, same libpng call; its median is
/// passed as `--floor`). Target (issue 18): at most 1.5×.
enum ScreenshotBenchmark {
    static func run(dump: String, image: String, iterations: Int, floor: Double?) {
        guard let xml = FileManager.default.contents(atPath: dump), let png = FileManager.default.contents(atPath: image) else {
            print("cannot read \(dump) or \(image)")
            exit(2)
        }
        let rulesDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Rules").path
        guard let library = try? RuleSetLibrary.load(directories: [rulesDirectory]), let ruleSet = library["android-default"] else {
            print("rule sets not found in \(rulesDirectory)")
            exit(2)
        }
        let xmlBytes = [UInt8](xml), pngBytes = [UInt8](png)
        var wholes: [Double] = [], decodes: [Double] = [], rules: [Double] = []
        var findings = 0, fromPixels = 0, incompletes = 0, elements = 0
        for _ in 0..<max(1, iterations) {
            let start = DispatchTime.now().uptimeNanoseconds
            do {
                let snapshot = try SnapshotParser().parse(xmlBytes)
                let decodeStart = DispatchTime.now().uptimeNanoseconds
                let screenshot = try ImageDecoder.decode(pngBytes)
                let decoded = DispatchTime.now().uptimeNanoseconds
                let withPixels = try snapshot.attaching(screenshot)
                let report = Auditor.audit(withPixels, ruleSet: ruleSet)
                let audited = DispatchTime.now().uptimeNanoseconds
                _ = report.rendered()
                let end = DispatchTime.now().uptimeNanoseconds
                wholes.append(Double(end - start) / 1e6)
                decodes.append(Double(decoded - decodeStart) / 1e6)
                rules.append(Double(audited - decoded) / 1e6)
                findings = report.findings.count
                fromPixels = report.findings.filter { $0.finding.evidence("source") == .string("screenshot") }.count
                incompletes = report.incomplete.count
                elements = snapshot.elements.count
            } catch {
                print("audit failed: \(error)")
                exit(1)
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        print("elements: \(elements), findings: \(findings) (\(fromPixels) from pixels), incomplete: \(incompletes)")
        print(String(format: "median ms: whole audit %.2f (decode %.2f, map + rules %.2f)", median(wholes), median(decodes), median(rules)))
        if let floor {
            print(String(format: "whole audit / C decode alone (%.2f ms): %.2f (target ≤ 1.5)", floor, median(wholes) / floor))
        }
    }
}
