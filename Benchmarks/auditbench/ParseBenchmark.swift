import AuditCore
import Foundation

/// Parse-only benchmark: SnapshotParser against `xmllint --stream --noout` and
/// `xmllint --noout` on the same file, best of K runs each, as ratios.
enum ParseBenchmark {
    static func run(path: String, iterations: Int) {
        guard let data = FileManager.default.contents(atPath: path) else {
            print("cannot read \(path)")
            exit(2)
        }
        let bytes = [UInt8](data)
        let parser = SnapshotParser(options: .init(maxBytes: Int.max))
        var best = Double.infinity
        var elements = 0
        var modelBytes = 0
        for _ in 0..<iterations {
            let start = DispatchTime.now().uptimeNanoseconds
            guard let snapshot = try? parser.parse(bytes) else {
                print("parse failed")
                exit(1)
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            elements = snapshot.elements.count
            modelBytes = snapshot.elements.count * MemoryLayout<Element>.stride + snapshot.texts.bytes.count
                + snapshot.animations.count * MemoryLayout<Animation>.stride
        }
        if ProcessInfo.processInfo.environment["AUDITBENCH_ONLY_SELF"] != nil {
            print(Timing.row("SnapshotParser (SAX2 → model)", best))
            return
        }
        let stream = Timing.command(["xmllint", "--stream", "--noout", path], iterations: iterations)
        let dom = Timing.command(["xmllint", "--noout", path], iterations: iterations)
        print("file: \(path) (\(bytes.count) bytes, \(elements) elements)")
        print(Timing.row("SnapshotParser (SAX2 → model)", best))
        if let stream { print(Timing.row("xmllint --stream --noout", stream)) }
        if let dom { print(Timing.row("xmllint --noout (DOM)", dom)) }
        if let stream { print(String(format: "ratio parse / xmllint --stream: %.2f", best / stream)) }
        if let dom { print(String(format: "ratio parse / xmllint --noout:  %.2f", best / dom)) }
        print(String(format: "µs per element: %.3f", best * 1000 / Double(max(elements, 1))))
        print(String(format: "model memory: %.1f MiB = %.2f × file size (Element stride %d bytes)",
                     Double(modelBytes) / 1_048_576, Double(modelBytes) / Double(bytes.count), MemoryLayout<Element>.stride))
    }
}

/// Wall-clock timing helpers.
enum Timing {
    /// Best wall time, in ms, of running a command K times (spawn cost included, about 1 ms).
    static func command(_ arguments: [String], iterations: Int) -> Double? {
        var best = Double.infinity
        for _ in 0..<iterations {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = DispatchTime.now().uptimeNanoseconds
            guard (try? process.run()) != nil else { return nil }
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { return nil }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return best
    }

    static func row(_ name: String, _ milliseconds: Double) -> String {
        name.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%9.2f ms", milliseconds)
    }
}
