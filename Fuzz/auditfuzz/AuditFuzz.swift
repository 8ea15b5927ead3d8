import AuditCore
import AuditDaemonKit
import Foundation

/// Fuzz targets for the three snapshot dialects' parser, the HTTP request parser and the
/// rule-set loader.
///
/// Built normally, `auditfuzz TARGET FILE|DIR…` replays inputs through a target (the
/// regression mode CI runs over `Fuzz/corpus`). Built with
/// `swift build -c release --product auditfuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING`,
/// `auditfuzz TARGET [libFuzzer options] [CORPUS_DIR]` runs libFuzzer (scripts/fuzz).
@main
enum AuditFuzz {
    static func main() {
        var arguments = CommandLine.arguments
        guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[1]) else {
            FileHandle.standardError.write(Data("usage: auditfuzz parser|http|rulesets [FILE|DIR…]\n".utf8))
            exit(2)
        }
        FuzzTarget.selected = target
        arguments.remove(at: 1)
        #if FUZZING
        exit(runLibFuzzer(arguments))
        #else
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                [UInt8](data).withUnsafeBufferPointer { target.run($0) }
                count += 1
            }
        }
        print("auditfuzz \(target.rawValue): \(count) inputs replayed, no crash")
        #endif
    }

    static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
    }
}

/// What one input goes through.
enum FuzzTarget: String {
    case parser, http, rulesets

    nonisolated(unsafe) static var selected: FuzzTarget = .parser

    func run(_ input: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .parser:
            // Every dialect: the root decides; then the rules over whatever parsed.
            if let snapshot = try? SnapshotParser().parse(UnsafeRawBufferPointer(input)) {
                _ = Auditor.audit(snapshot, ruleSet: .allBuiltIn, concurrent: false)
            }
        case .http:
            var parser = HTTPRequestParser(limits: .init(headerBytes: 4096, targetBytes: 1024, bodyBytes: 65536))
            // Feed in two pieces at an input-chosen split, as the network would.
            let split = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
            let raw = UnsafeRawBufferPointer(input)
            _ = parser.feed(UnsafeRawBufferPointer(rebasing: raw[0..<split]))
            _ = parser.feed(UnsafeRawBufferPointer(rebasing: raw[split...]))
        case .rulesets:
            guard let json = try? JSONParser.parse(Array(input)) else { return }
            let base = (try? JSONParser.parse(#"{"name": "base", "rules": {"contrast.text": true}}"#)) ?? .null
            _ = try? RuleSetLibrary.resolve(["fuzzed": ("fuzzed.json", json), "base": ("base.json", base)])
        }
    }
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

func runLibFuzzer(_ arguments: [String]) -> Int32 {
    var argc = Int32(arguments.count)
    var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    return pointers.withUnsafeMutableBufferPointer { buffer in
        var argv = buffer.baseAddress
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzTarget.selected.run(UnsafeBufferPointer(start: data, count: size))
            return 0
        }
    }
}
#endif
