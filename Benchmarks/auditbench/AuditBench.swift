import AuditCore
import Foundation

/// auditbench: benchmarks and the seeded snapshot generator.
///
///   auditbench generate N [--seed S] [--problem-rate P]   a native snapshot of N elements on stdout
///   auditbench parse FILE [--iterations K]    parse time vs xmllint --stream/--noout, memory
///   auditbench audit FILE [--ruleset NAME] [--iterations K] [--print]   parse vs rules, in process
///   auditbench load --socket S --clients N --requests M [--pid P] [--churn] FILE…   keep-alive load over the socket;
///                                             with --churn, also a connection per request and clients that vanish;
///                                             with --pid, a soak: expected answers, fds and RSS watched
///   auditbench adversarial [--sizes A,B,C] [--shape S] [--ruleset NAME]   rules vs parse on crowded geometry
///   auditbench generate-adversarial SHAPE N   one adversarial snapshot on stdout
///   auditbench colors                         colour maths for pairs on stdin (scripts/check-colors.py)
///   auditbench screenshot DUMP IMAGE [--iterations K] [--floor MS]   audit with a screenshot vs decode alone
@main
enum AuditBench {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else { return usage() }
        arguments.removeFirst()
        switch command {
        case "generate":
            guard let count = arguments.first.flatMap(Int.init) else { return usage() }
            let seed = option("--seed", in: arguments).flatMap(UInt64.init) ?? 42
            let rate = option("--problem-rate", in: arguments).flatMap(Double.init) ?? 0.03
            var generator = SnapshotGenerator(elements: count, seed: seed, problemRate: rate)
            FileHandle.standardOutput.write(Data(generator.generate().utf8))
        case "audit":
            guard let path = arguments.first else { return usage() }
            AuditBenchmark.run(
                path: path, ruleSetName: option("--ruleset", in: arguments) ?? "ios-default",
                iterations: option("--iterations", in: arguments).flatMap(Int.init) ?? 5,
                printReport: arguments.contains("--print"))
        case "load":
            let socket = option("--socket", in: arguments) ?? ProcessInfo.processInfo.environment["AUDITD_SOCKET"] ?? ""
            let clients = option("--clients", in: arguments).flatMap(Int.init) ?? 8
            let requests = option("--requests", in: arguments).flatMap(Int.init) ?? 1000
            let churn = arguments.contains("--churn")
            arguments.removeAll { $0 == "--churn" }
            var files: [String] = []
            var skip = false
            for argument in arguments {
                if skip { skip = false; continue }
                if argument.hasPrefix("--") { skip = true; continue }
                files.append(argument)
            }
            if let pid = option("--pid", in: arguments).flatMap(Int32.init) {
                exit(
                    LoadGenerator.soak(
                        socket: socket, pid: pid, clients: max(1, clients), requests: max(1, requests), files: files,
                        churn: churn) ? 0 : 1)
            }
            LoadGenerator.run(socket: socket, clients: max(1, clients), requests: max(1, requests), files: files, churn: churn)
        case "adversarial":
            let sizes = (option("--sizes", in: arguments) ?? "1000,10000,100000").split(separator: ",").compactMap { Int($0) }
            let shapes = option("--shape", in: arguments).map { [$0] } ?? AdversarialGenerator.shapes
            AdversarialBenchmark.run(
                sizes: sizes, shapes: shapes, ruleSetName: option("--ruleset", in: arguments) ?? "ios-default",
                iterations: option("--iterations", in: arguments).flatMap(Int.init) ?? 3)
        case "generate-adversarial":
            guard let shape = arguments.first, let count = arguments.dropFirst().first.flatMap(Int.init),
                let text = AdversarialGenerator.generate(shape, elements: count)
            else { return usage() }
            FileHandle.standardOutput.write(Data(text.utf8))
        case "screenshot":
            guard arguments.count >= 2 else { return usage() }
            ScreenshotBenchmark.run(
                dump: arguments[0], image: arguments[1],
                iterations: option("--iterations", in: arguments).flatMap(Int.init) ?? 9,
                floor: option("--floor", in: arguments).flatMap(Double.init))
        case "colors":
            ColorProbe.run()
        case "parse":
            guard let path = arguments.first else { return usage() }
            let iterations = option("--iterations", in: arguments).flatMap(Int.init) ?? 5
            ParseBenchmark.run(path: path, iterations: iterations)
        default:
            usage()
        }
    }

    static func option(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    static func usage() {
        FileHandle.standardError.write(
            Data(
                """
                usage: auditbench generate N [--seed S] [--problem-rate P]
                       auditbench parse FILE [--iterations K]

                """.utf8))
        exit(2)
    }
}
