import CLibXML2
import Foundation

/// Where each start tag of a document is, exactly: its line, and its column in Unicode code
/// points (what SARIF's `unicodeCodePoints` and editors count, not bytes — a one-line
/// uiautomator dump of Chinese text would otherwise point past its element). libxml2 says
/// where a token ends; the tag starts at the last `<` before that (attribute values cannot
/// hold a raw `<`), and newlines and code points are counted incrementally, so a document is
/// scanned once however many tags it has. Only for UTF-8 input, where byte offsets are
/// character offsets.
final class SourcePositions: TagLocator {
    let source: UnsafeRawBufferPointer
    /// The source is UTF-8 (or ASCII): positions can be computed from its bytes.
    let tracksBytes: Bool
    private var lastTagStart = -1
    private var scanOffset = 0
    private var scanLine = 1
    private var lineStart = 0
    /// Code points counted on the current line up to `codePointOffset`.
    private var codePointOffset = 0
    private var codePointsBefore = 0

    init(source: UnsafeRawBufferPointer) {
        self.source = source
        tracksBytes = SourcePositions.isUTF8(source)
    }

    func startTag(consumed: Int) -> (line: Int, column: Int)? { startTag(in: source, consumed: consumed) }

    /// The line and column of the start tag libxml2 reported having read up to `consumed`
    /// bytes of `source`; nil when the source is not UTF-8 or no tag start is found.
    func startTag(in source: UnsafeRawBufferPointer, consumed: Int) -> (line: Int, column: Int)? {
        guard tracksBytes, let base = source.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let consumed = min(consumed, source.count)
        let start = auditd_last_index_of(base, lastTagStart + 1, consumed, UInt8(ascii: "<"))
        guard start > lastTagStart else { return nil }
        var cursor = scanOffset
        while cursor < start, let hit = memchr(base + cursor, 0x0A, start - cursor) {
            let offset = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            scanLine += 1
            lineStart = offset + 1
            cursor = offset + 1
        }
        scanOffset = max(scanOffset, start)
        lastTagStart = start
        if codePointOffset < lineStart {
            codePointOffset = lineStart
            codePointsBefore = 0
        }
        // Every byte that does not continue a UTF-8 sequence starts a code point.
        var count = 0
        var offset = codePointOffset
        while offset < start {
            count &+= Int(base[offset] & 0xC0 != 0x80 ? 1 : 0)
            offset += 1
        }
        codePointsBefore += count
        codePointOffset = start
        return (scanLine, codePointsBefore + 1)
    }

    /// True when byte offsets are character offsets: UTF-8 (or ASCII) without a BOM
    /// other than UTF-8's.
    static func isUTF8(_ source: UnsafeRawBufferPointer) -> Bool {
        if source.count >= 2 {
            let (first, second) = (source[0], source[1])
            if (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE) || first == 0 || second == 0 { return false }
        }
        let head = source.prefix(256)
        guard let declarationEnd = head.firstIndex(of: UInt8(ascii: ">")),
            head.starts(with: Array("<?xml".utf8)) || head.starts(with: [0xEF, 0xBB, 0xBF] + Array("<?xml".utf8))
        else { return true }
        let declaration = String(decoding: head[..<declarationEnd], as: UTF8.self).lowercased()
        guard let range = declaration.range(of: "encoding") else { return true }
        let rest = declaration[range.upperBound...].drop(while: { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" })
        let encoding = rest.prefix(while: { $0 != "\"" && $0 != "'" && $0 != " " })
        return ["utf-8", "utf8", "us-ascii", "ascii"].contains(String(encoding))
    }
}
