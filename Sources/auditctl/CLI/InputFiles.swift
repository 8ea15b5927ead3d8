import AuditClient
import AuditCommandLine
import AuditCore
import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Input that cannot be read: exit status 2 with the message.
struct InputError: Error, CustomStringConvertible {
    var description: String
}

enum InputFiles {
    /// The bytes of a file, or of standard input for `-`.
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" {
            return [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        }
        guard let bytes = OpenFile(path: path)?.readAll() else { throw unreadable(path) }
        return bytes
    }

    /// What to send for `path`: a regular file is opened and left for `sendfile` (it is
    /// never read into auditctl); standard input and pipes are read.
    static func body(_ path: String) throws -> RequestBody {
        if path == "-" { return .bytes(try read(path)) }
        guard let file = OpenFile(path: path) else { throw unreadable(path) }
        if file.size != nil { return .file(file) }
        guard let bytes = file.readAll() else { throw unreadable(path) }
        return .bytes(bytes)
    }

    private static func unreadable(_ path: String) -> InputError {
        InputError(description: "\(path): cannot read the file (does it exist, and may you read it?)")
    }

    /// The screenshot beside a snapshot: the same base name with `.png`, `.jpg` or `.jpeg`
    /// (`login.xml` + `login.png`), as uiautomatorviewer and test pipelines save them.
    static func siblingScreenshot(of path: String) -> String? {
        guard path != "-" else { return nil }
        let base = SnapshotDialects.baseName(of: path)
        for suffix in [".png", ".jpg", ".jpeg", ".PNG", ".JPG", ".JPEG"] {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + suffix, isDirectory: &isDirectory), !isDirectory.boolValue { return base + suffix }
        }
        return nil
    }

    /// `target` naming the file's base name as the screen when the snapshot names none
    /// (`checkout.xml` → `default-screen=checkout`).
    static func target(_ target: String, defaultScreenFor path: String) -> String {
        guard path != "-" else { return target }
        let name = (SnapshotDialects.baseName(of: path) as NSString).lastPathComponent
        guard !name.isEmpty else { return target }
        return target + (target.contains("?") ? "&" : "?") + "default-screen=" + encoded(name)
    }

    static func encoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// The body of an audit: the snapshot alone, or with a screenshot as a form.
    static func auditBody(snapshot path: String, bytes: [UInt8]?, screenshot: String?) throws -> (RequestBody, contentType: String) {
        let snapshotType = SnapshotDialects.contentType(forFile: path)
        guard let screenshot else { return (try bytes.map(RequestBody.bytes) ?? body(path), snapshotType) }
        let snapshotBytes = try bytes ?? read(path)
        let image = try read(screenshot)
        let lower = screenshot.lowercased()
        let type = lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg") ? "image/jpeg" : lower.hasSuffix(".png") ? "image/png" : "application/octet-stream"
        let form = MultipartBody(parts: [
            .init(name: "snapshot", filename: path == "-" ? "snapshot.xml" : (path as NSString).lastPathComponent, contentType: snapshotType, bytes: snapshotBytes),
            .init(name: "screenshot", filename: (screenshot as NSString).lastPathComponent, contentType: type, bytes: image),
        ])
        return (.bytes(form.bytes), form.contentType)
    }

    /// Operands with directories expanded to the captures below them (the file extensions
    /// the dialects declare: `*.xml`), sorted.
    static func expand(_ operands: [String]) throws -> [String] {
        var result: [String] = []
        for operand in operands {
            var isDirectory: ObjCBool = false
            if operand != "-", FileManager.default.fileExists(atPath: operand, isDirectory: &isDirectory), isDirectory.boolValue {
                let base = operand.hasSuffix("/") ? String(operand.dropLast()) : operand
                let found = (FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? [])
                    .filter { name in SnapshotDialects.fileExtensions.contains { name.lowercased().hasSuffix("." + $0) } }
                    .sorted()
                    .map { base + "/" + $0 }
                if found.isEmpty {
                    let patterns = SnapshotDialects.fileExtensions.map { "*." + $0 }.joined(separator: ", ")
                    throw InputError(description: "\(operand): no \(patterns) files in this directory")
                }
                result += found
            } else {
                result.append(operand)
            }
        }
        return result
    }
}
