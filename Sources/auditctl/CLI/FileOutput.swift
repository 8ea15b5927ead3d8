#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import AuditCore

/// Where a report is printed: standard output or the `--output` file, written in pieces
/// of 256 KiB as the report is formatted — a report of megabytes is never held whole in
/// memory a second time. A failed write (a closed pipe, a full disk) stops the writing
/// and is kept in `failure`.
final class FileOutput: ByteSink {
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let capacity = 256 * 1024
    private let buffer: UnsafeMutablePointer<UInt8>
    private var used = 0
    /// Bytes written so far, those still buffered included.
    private(set) var count = 0
    /// Why writing stopped, if it did.
    private(set) var failure: String?

    /// Standard output (anything stdio buffered is flushed first, to keep the order).
    static func standardOutput() -> FileOutput {
        fflush(stdout)
        return FileOutput(fd: 1, ownsDescriptor: false)
    }

    /// `path`, created or truncated; nil with the reason when it cannot be opened.
    static func file(_ path: String) -> Result<FileOutput, InputError> {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            return .failure(InputError(description: "\(path): cannot write the report (\(String(cString: strerror(errno))))"))
        }
        return .success(FileOutput(fd: fd, ownsDescriptor: true))
    }

    private init(fd: Int32, ownsDescriptor: Bool) {
        self.fd = fd
        self.ownsDescriptor = ownsDescriptor
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        flush()
        if ownsDescriptor { close(fd) }
        buffer.deallocate()
    }

    func write(byte: UInt8) {
        if used == capacity { flush() }
        buffer[used] = byte
        used += 1
        count += 1
    }

    func write(bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        count += bytes.count
        if used + bytes.count <= capacity {
            (buffer + used).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            used += bytes.count
            return
        }
        flush()
        if bytes.count >= capacity {
            writeAll(source, bytes.count)
        } else {
            buffer.update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            used = bytes.count
        }
    }

    /// Writes what is buffered.
    func flush() {
        if used > 0 { writeAll(UnsafeRawPointer(buffer), used) }
        used = 0
    }

    /// Flushes; nil, or why writing failed.
    func finish() -> String? {
        flush()
        return failure
    }

    private func writeAll(_ start: UnsafeRawPointer, _ length: Int) {
        var offset = 0
        while failure == nil, offset < length {
            let written = Glibc.write(fd, start + offset, length - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                failure = written < 0 ? String(cString: strerror(errno)) : "nothing written"
            }
        }
    }
}
