import Foundation

/// A link from a report to a file beside the inputs (a snapshot's screenshot): relative to
/// the report's folder when the report is written to a file — so a folder holding both
/// can be moved or archived whole — else an absolute `file:` URL (a report on standard
/// output may be saved anywhere). Path segments are percent-encoded.
enum FileLink {
    static func href(to file: String, fromReport report: String?) -> String {
        let target = URL(fileURLWithPath: file).standardizedFileURL
        guard let report else { return target.absoluteString }
        let folder = URL(fileURLWithPath: report).standardizedFileURL.deletingLastPathComponent()
        let from = folder.pathComponents, to = target.pathComponents
        var common = 0
        while common < min(from.count, to.count), from[common] == to[common] { common += 1 }
        let steps = Array(repeating: "..", count: from.count - common) + to[common...].map(encode)
        return steps.joined(separator: "/")
    }

    /// A path segment as a URL path segment: unreserved characters kept, others
    /// percent-encoded (a space, `#`, `?`, `%`).
    static func encode(_ segment: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~!$&'()*+,;=:@")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }
}
