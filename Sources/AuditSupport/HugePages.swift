#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Asks the kernel for 2 MiB pages under the large buffers of one audit (the snapshot's
/// body, its elements and texts, the report): each is fresh memory, and touching it 4 KiB
/// at a time cost ~17,000 page faults per audit of 100,000 elements. With transparent huge
/// pages in `madvise` mode (Debian's default) the advice turns those into a few dozen
/// faults; in `never` mode, or when no huge page is free, it changes nothing.
public enum HugePages {
    /// Below this a buffer stays on 4 KiB pages (it holds at most one aligned huge page).
    public static let threshold = 4 << 20
    private static let size = 2 << 20

    /// Advises the whole 2 MiB-aligned span inside `count` bytes at `start`, if the
    /// buffer is at least ``threshold`` bytes. Call before the memory is first written.
    public static func advise(_ start: UnsafeMutableRawPointer?, count: Int) {
        guard count >= threshold, let start else { return }
        let first = (Int(bitPattern: start) + size - 1) & ~(size - 1)
        let end = (Int(bitPattern: start) + count) & ~(size - 1)
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, end - first, MADV_HUGEPAGE)
    }

    /// Advises the storage `array` has reserved (its capacity, not only its count).
    public static func advise<Element>(capacityOf array: inout [Element]) {
        let bytes = array.capacity * MemoryLayout<Element>.stride
        guard bytes >= threshold else { return }
        array.withUnsafeMutableBufferPointer { buffer in
            advise(buffer.baseAddress.map(UnsafeMutableRawPointer.init), count: bytes)
        }
    }
}
