import AuditCore
import Foundation

/// auditbench: benchmarks and the seeded snapshot generator.
///
///   auditbench generate N [--seed S]          a native snapshot of N elements on stdout
///   auditbench parse FILE [--iterations K]    parse time vs xmllint --stream/--noout, memory
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
            var generator = SnapshotGenerator(elements: count, seed: seed)
            FileHandle.standardOutput.write(Data(generator.generate().utf8))
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
        FileHandle.standardError.write(Data("""
            usage: auditbench generate N [--seed S]
                   auditbench parse FILE [--iterations K]

            """.utf8))
        exit(2)
    }
}
