import AuditCore
import Foundation

let args = CommandLine.arguments.dropFirst()
for path in args {
    guard let data = FileManager.default.contents(atPath: path) else { print("cannot read \(path)"); continue }
    do {
        let s = try SnapshotParser().parse([UInt8](data))
        print(path.split(separator: "/").last!, s.dialect, s.platform, s.elements.count, s.app ?? "-", s.width ?? 0, s.scale ?? 0, s.invalidValues.count, s.notes)
    } catch {
        print(path.split(separator: "/").last!, "ERROR", error)
    }
}
