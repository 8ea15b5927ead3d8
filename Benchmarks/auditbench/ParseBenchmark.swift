import AuditCore
#if canImport(FoundationXML)
import FoundationXML
#endif
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
        // Documents from 1 MiB are parsed on two threads; the same parse on one thread is
        // timed beside it (the parsing work itself). AUDITBENCH_ONE_THREAD=1 parses on one
        // thread only, AUDITBENCH_ONLY_SELF=1 times nothing else (both for callgrind).
        let environment = ProcessInfo.processInfo.environment
        let forceOneThread = environment["AUDITBENCH_ONE_THREAD"] != nil
        let twoThreadBytes = SnapshotParser.Options().twoThreadBytes
        let parser = SnapshotParser(options: .init(maxBytes: Int.max, twoThreadBytes: forceOneThread ? .max : twoThreadBytes))
        let oneThreadParser = SnapshotParser(options: .init(maxBytes: Int.max, twoThreadBytes: .max))
        let twoThreads = !forceOneThread && environment["AUDITBENCH_ONLY_SELF"] == nil && bytes.count >= twoThreadBytes
        var oneThreadBest = Double.infinity
        var best = Double.infinity
        var elements = 0
        var modelBytes = 0
        var streamBest = Double.infinity
        // Interleave our parse with xmllint's, so drift in machine speed hits both alike.
        let compare = ProcessInfo.processInfo.environment["AUDITBENCH_ONLY_SELF"] == nil
        for _ in 0..<iterations {
            let start = DispatchTime.now().uptimeNanoseconds
            guard let snapshot = try? parser.parse(bytes) else {
                print("parse failed")
                exit(1)
            }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            if twoThreads {
                let oneThreadStart = DispatchTime.now().uptimeNanoseconds
                _ = try? oneThreadParser.parse(bytes)
                oneThreadBest = min(oneThreadBest, Double(DispatchTime.now().uptimeNanoseconds - oneThreadStart) / 1e6)
            }
            elements = snapshot.elements.count
            modelBytes =
                snapshot.elements.count * MemoryLayout<Element>.stride + snapshot.texts.bytes.count
                + snapshot.animations.count * MemoryLayout<Animation>.stride
            if compare, let stream = Timing.command(["xmllint", "--stream", "--noout", path], iterations: 1) {
                streamBest = min(streamBest, stream)
            }
        }
        if ProcessInfo.processInfo.environment["AUDITBENCH_ONLY_SELF"] != nil {
            print(Timing.row("SnapshotParser (SAX2 → model)", best))
            return
        }
        let stream: Double? = streamBest.isFinite ? streamBest : nil
        let dom = Timing.command(["xmllint", "--noout", path], iterations: iterations)
        let foundation = FoundationBaseline.time(data: data, iterations: iterations)
        print("file: \(path) (\(bytes.count) bytes, \(elements) elements)")
        print(Timing.row(twoThreads ? "SnapshotParser, two threads" : "SnapshotParser (SAX2 → model)", best))
        if twoThreads { print(Timing.row("SnapshotParser on one thread", oneThreadBest)) }
        if let stream { print(Timing.row("xmllint --stream --noout", stream)) }
        if let dom { print(Timing.row("xmllint --noout (DOM)", dom)) }
        if let foundation {
            print(Timing.row("Foundation XMLParser (count only)", foundation))
            print(String(format: "ratio parse / XMLParser:          %.2f", best / foundation))
        } else {
            print("Foundation XMLParser: fails on documents over about 10 MB (Huge input lookup)")
        }
        if let stream { print(String(format: "ratio parse / xmllint --stream: %.2f", best / stream)) }
        if let stream, twoThreads { print(String(format: "ratio one-thread parse / xmllint --stream: %.2f", oneThreadBest / stream)) }
        if let dom { print(String(format: "ratio parse / xmllint --noout:  %.2f", best / dom)) }
        print(String(format: "µs per element: %.3f", best * 1000 / Double(max(elements, 1))))
        print(
            String(
                format: "model memory: %.1f MiB = %.2f × file size (Element stride %d bytes)",
                Double(modelBytes) / 1_048_576, Double(modelBytes) / Double(bytes.count), MemoryLayout<Element>.stride))
    }
}

/// Wall-clock timing helpers.
enum Timing {
    /// Best wall time, in ms, of running a command K times, started with `posix_spawnp`
    /// (Foundation's `Process` adds about 50 ms a start here, which would flatter us).
    static func command(_ arguments: [String], iterations: Int) -> Double? {
        var best = Double.infinity
        for _ in 0..<iterations {
            var pid: pid_t = 0
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            defer { posix_spawn_file_actions_destroy(&actions) }
            let argv = arguments.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            let start = DispatchTime.now().uptimeNanoseconds
            guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { return nil }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            guard status == 0 else { return nil }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return best
    }

    static func row(_ name: String, _ milliseconds: Double) -> String {
        name.padding(toLength: 34, withPad: " ", startingAt: 0) + String(format: "%9.2f ms", milliseconds)
    }
}

/// Foundation's `XMLParser` counting elements: the baseline a Swift team would reach for.
enum FoundationBaseline {
    final class Counter: NSObject, XMLParserDelegate {
        var elements = 0
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            elements += 1
        }
    }

    static func time(data: Data, iterations: Int) -> Double? {
        var best = Double.infinity
        for _ in 0..<iterations {
            let parser = XMLParser(data: data)
            let counter = Counter()
            parser.delegate = counter
            let start = DispatchTime.now().uptimeNanoseconds
            guard parser.parse() else { return nil }
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return best
    }
}
