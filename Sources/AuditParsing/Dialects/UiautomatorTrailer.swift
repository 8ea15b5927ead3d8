/// `adb shell uiautomator dump /dev/tty`, the usual way to get a dump without a file,
/// writes its status line right after the document: `…</hierarchy>UI hierchary dumped to:
/// /dev/tty` (the tool's own spelling). Real dumps posted by users carry it; it is not
/// part of the XML and is cut off before parsing, with a note. Any other text after the
/// document is still refused as malformed.
enum UiautomatorTrailer {
    static let markers = ["UI hierchary dumped to:", "UI hierarchy dumped to:"].map { Array($0.utf8) }

    /// The length of `bytes` without the trailer, or nil when there is none.
    static func documentLength(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ">")) else { return nil }
        var start = close + 1
        while start < bytes.count, ValueScanner.isBlank(bytes[start]) { start += 1 }
        guard start < bytes.count, !bytes[start..<bytes.count].contains(UInt8(ascii: "<")) else { return nil }
        let rest = bytes[start..<bytes.count]
        return markers.contains { rest.starts(with: $0) } ? close + 1 : nil
    }
}
