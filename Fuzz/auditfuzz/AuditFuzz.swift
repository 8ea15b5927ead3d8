import AuditCore
import AuditDaemonKit
import AuditTransport
import Foundation

/// Fuzz targets for the three snapshot dialects' parser, the HTTP request parser, the
/// rule-set loader and the screenshot path (decoding, mapping, colours from pixels).
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
            FileHandle.standardError.write(Data("usage: auditfuzz parser|http|rulesets|image [FILE|DIR…]\n".utf8))
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
    case parser, http, rulesets, image

    /// The snapshot fuzzed images are laid on: one text, one icon and one button, on a
    /// native screen of the image's size (built per input, as the size varies).
    static func imageSnapshot(width: Int, height: Int) -> Snapshot? {
        let w = Double(width), h = Double(height)
        let xml = """
            <snapshot version="1" platform="android" width="\(w)" height="\(h)" scale="1">
            <element id="root" role="window" frame="0,0,\(w),\(h)">
            <element id="t" role="text" text="Pay" frame="\(w * 0.1),\(h * 0.1),\(w * 0.6),\(h * 0.3)"/>
            <element id="i" role="image" label="Logo" frame="\(w * 0.5),\(h * 0.5),\(w * 0.3),\(h * 0.3)"/>
            <element id="b" role="button" label="Go" frame="\(w * 0.05),\(h * 0.6),\(w * 0.2),\(h * 0.2)"/>
            </element></snapshot>
            """
        return try? SnapshotParser().parse(xml)
    }

    nonisolated(unsafe) static var selected: FuzzTarget = .parser

    func run(_ input: UnsafeBufferPointer<UInt8>) {
        switch self {
        case .parser:
            // Every dialect: the root decides; then the rules over whatever parsed.
            let raw = UnsafeRawBufferPointer(input)
            let oneThread = Result { () throws(SnapshotError) in try SnapshotParser(options: .init(twoThreadBytes: .max)).parse(raw) }
            if case .success(let snapshot) = oneThread {
                _ = Auditor.audit(snapshot, ruleSet: .allBuiltIn, concurrent: false)
            }
            // The same document on two threads (used from 1 MiB) must give the same result.
            let twoThreads = Result { () throws(SnapshotError) in try SnapshotParser(options: .init(twoThreadBytes: 0)).parse(raw) }
            if Self.summary(oneThread) != Self.summary(twoThreads) {
                fatalError("one and two threads disagree: \(Self.summary(oneThread)) vs \(Self.summary(twoThreads))")
            }
        case .http:
            var parser = HTTPRequestParser(limits: .init(headerBytes: 4096, targetBytes: 1024, bodyBytes: 65536))
            // Feed in two pieces at an input-chosen split, as the network would; bodies of
            // the second piece go in place (`receiveBody`) in input-chosen steps, as the
            // daemon receives them.
            let split = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
            let step = input.isEmpty ? 1 : 1 + Int(input[input.count - 1]) % 97
            let raw = UnsafeRawBufferPointer(input)
            var events = parser.feed(UnsafeRawBufferPointer(rebasing: raw[0..<split]))
            var rest = raw[split...]
            while !rest.isEmpty {
                let direct = parser.receiveBody { space in
                    let count = min(space.count, rest.count, step)
                    space.copyMemory(from: UnsafeRawBufferPointer(rebasing: rest.prefix(count)))
                    return count
                }
                guard let direct else {
                    events += parser.feed(UnsafeRawBufferPointer(rebasing: rest))
                    break
                }
                events += direct.events
                rest = rest.dropFirst(direct.received)
            }
            // The pieces must not change what is parsed.
            var whole = HTTPRequestParser(limits: parser.limits)
            let wholeEvents = whole.feed(raw)
            if Self.summary(events) != Self.summary(wholeEvents) {
                fatalError("pieces and the whole disagree: \(Self.summary(events)) vs \(Self.summary(wholeEvents))")
            }
        case .image:
            // Decoding under small limits; whatever decodes is laid on a snapshot of its
            // size and judged by the colour rules.
            let raw = UnsafeRawBufferPointer(input)
            guard let image = try? ImageDecoder.decode(raw, limits: ImageLimits(maxBytes: 1 << 20, maxPixels: 1 << 20, maxSide: 4096)),
                let snapshot = Self.imageSnapshot(width: image.width, height: image.height),
                let withPixels = try? snapshot.attaching(image)
            else { return }
            _ = Auditor.audit(withPixels, ruleSet: .allBuiltIn, concurrent: false)
        case .rulesets:
            guard let json = try? JSONParser.parse(Array(input)) else { return }
            let base = (try? JSONParser.parse(#"{"name": "base", "rules": {"contrast.text": true}}"#)) ?? .null
            _ = try? RuleSetLibrary.resolve(["fuzzed": ("fuzzed.json", json), "base": ("base.json", base)])
        }
    }
}

extension FuzzTarget {
    /// What a parse produced, compared across ways of running it.
    static func summary(_ result: Result<Snapshot, SnapshotError>) -> String {
        switch result {
        case .success(let snapshot):
            "\(snapshot.dialect) \(snapshot.elements.count) \(snapshot.elements.map(\.line)) \(snapshot.elements.map(\.column)) "
                + "\(snapshot.texts.bytes) \(snapshot.roots) \(snapshot.animations.count) \(snapshot.invalidValues.count) \(snapshot.notes)"
        case .failure(let error): "\(error.code) \(error.line):\(error.column) \(error.message)"
        }
    }

    /// The requests and failures of a run of the HTTP parser.
    static func summary(_ events: [HTTPRequestParser.Event]) -> String {
        // `continueExpected` depends on where the pieces end (a head whose body has not
        // come yet), not on what is parsed; so does which fault of a malformed head is
        // seen first (a request line cut short is a 400, the whole of it a 414).
        events.compactMap { event in
            switch event {
            case .request(let request): "\(request.method) \(request.target) \(request.headers.count) \(request.body)"
            case .failure: "failure"
            case .continueExpected: nil
            }
        }.joined(separator: "|")
    }
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

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
