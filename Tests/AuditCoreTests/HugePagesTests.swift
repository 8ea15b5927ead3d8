@testable import AuditCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import XCTest

/// The advice for huge pages reaches the kernel for large buffers only: the mapping that
/// holds an advised buffer carries the `hg` flag in `/proc/self/smaps`.
final class HugePagesTests: XCTestCase {
    /// The `VmFlags` of the mapping that contains `address`.
    func flags(at address: Int) throws -> [Substring] {
        // Read to its end: /proc files report a size of 0.
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps"))
        let smaps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        var inside = false
        for line in smaps.split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
                let low = Int(line[..<dash], radix: 16), let high = Int(line[line.index(after: dash)..<space], radix: 16)
            {
                inside = low <= address && address < high
            } else if inside, line.hasPrefix("VmFlags:") {
                return line.dropFirst("VmFlags:".count).split(separator: " ")
            }
        }
        throw XCTSkip("no mapping found for the address")
    }

    func testLargeBuffersAreAdvisedAndSmallOnesAreNot() throws {
        guard FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled") else {
            throw XCTSkip("this kernel has no transparent huge pages")
        }
        let large = ByteBuffer(capacity: 16 << 20)
        let largeMiddle = large.withUnsafeBytes { Int(bitPattern: $0.baseAddress) } + (8 << 20)
        XCTAssertTrue(try flags(at: largeMiddle).contains("hg"), "a 16 MiB buffer asks for huge pages")

        var array = [Int64]()
        array.reserveCapacity(1 << 20)  // 8 MiB
        HugePages.advise(capacityOf: &array)
        let arrayMiddle = array.withUnsafeMutableBufferPointer { Int(bitPattern: $0.baseAddress) } + (4 << 20)
        XCTAssertTrue(try flags(at: arrayMiddle).contains("hg"), "an array's reserved storage is advised, not only its count")

        // A mapping of its own: from the allocator it could share a mapping that an
        // earlier advised buffer (the array's, once freed) left flagged.
        let mapped = mmap(nil, 3 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let small = mapped, small != MAP_FAILED else { throw XCTSkip("mmap failed") }
        defer { munmap(small, 3 << 20) }
        HugePages.advise(small, count: 3 << 20)
        XCTAssertFalse(try flags(at: Int(bitPattern: small) + (1 << 20)).contains("hg"), "below the threshold nothing is advised")
        withExtendedLifetime(large) {}
        withExtendedLifetime(array) {}
    }
}
