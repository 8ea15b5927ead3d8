import CTesseract

/// Tesseract's C API, opened with `dlopen` the first time a recognizer is made: linked,
/// the library and the 44 it depends on were mapped into every daemon at start
/// (Sources/CTesseract/shim.h).
package enum TesseractLibrary {
    /// The names tried, in order: Debian 12's soname, then the development link.
    package static let names = ["libtesseract.so.5", "libtesseract.so"]

    /// The functions, or why they could not be had; opened once per process.
    static let api: Result<AuditdTesseractAPI, TextRecognizer.Unavailable> = load(names)

    /// Opens the first of `names` that loads with every function auditd calls.
    package static func load(_ names: [String]) -> Result<AuditdTesseractAPI, TextRecognizer.Unavailable> {
        // Filled by C: the struct's functions are non-null, so Swift cannot make an empty one.
        let api = UnsafeMutablePointer<AuditdTesseractAPI>.allocate(capacity: 1)
        defer { api.deallocate() }
        var reasons: [String] = []
        for name in names {
            guard let reason = auditd_tesseract_load(name, api) else { return .success(api.pointee) }
            reasons.append(String(cString: reason))
        }
        return .failure(
            TextRecognizer.Unavailable(
                description: "Tesseract could not be loaded (\(reasons.joined(separator: "; "))): install libtesseract5 (scripts/setup does)"))
    }
}
