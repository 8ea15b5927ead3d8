#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// An array of up to `count` bytes read straight into its storage, allocated once: the
/// way a snapshot file or a response body of megabytes is read without a buffer in
/// between.
struct FilledBytes {
    /// The bytes read (fewer than asked when the source ended first).
    var bytes: [UInt8]
    /// The source ended before `count` bytes.
    var endedEarly: Bool
    /// `errno` of a failed read; nil when none failed.
    var failure: Int32?

    /// Starts with `prefix` (bytes already at hand), then calls `read` with where to
    /// write, how many bytes are still wanted, and how many are filled so far; it returns
    /// what a `read` call returns (bytes read, 0 at the end, less than 0 with `errno`
    /// set). Interrupted calls are retried.
    init(count: Int, prefix: [UInt8] = [], read: (UnsafeMutableRawPointer, Int, Int) -> Int) {
        var endedEarly = false
        var failure: Int32?
        bytes = [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
            guard let base = storage.baseAddress else { return }
            let start = min(prefix.count, count)
            prefix.withUnsafeBytes { source in
                if let from = source.baseAddress { UnsafeMutableRawPointer(base).copyMemory(from: from, byteCount: start) }
            }
            initialized = start
            while initialized < count {
                let got = read(base + initialized, count - initialized, initialized)
                if got > 0 {
                    initialized += got
                } else if got < 0, errno == EINTR {
                    continue
                } else {
                    if got < 0 { failure = errno } else { endedEarly = true }
                    return
                }
            }
        }
        self.endedEarly = endedEarly
        self.failure = failure
    }
}
