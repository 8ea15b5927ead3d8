import AuditCore
import AuditOCR
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// Tesseract's language data tried in a child process before the daemon loads it: damaged
/// data (a `traineddata` with bytes flipped) makes Tesseract assert and `abort()`, or divide
/// by zero, inside whoever loads it — the whole daemon, on its first OCR audit. The child
/// (`auditd --check-ocr-data`, the daemon's own binary) loads the data and reads a small
/// image; the daemon loads the data itself only once the child came back well, and a
/// child that died says so as OCR's reason.
enum OCRDataCheck {
    /// The argument that makes `auditd` the check's child.
    static let argument = "--check-ocr-data"

    /// The most the check may take (a healthy load takes a tenth of a second or so).
    static let seconds = 60.0

    /// Runs the check as a child of this process; nil when the data is sound, else why not.
    static func run() -> TextRecognizer.Unavailable? {
        var pid: pid_t = 0
        let executable = "/proc/self/exe"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in [0, 1, 2] { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let arguments = ["auditd", argument]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // The daemon's environment, without Swift's crash backtracer: printing a crash's
        // backtrace took the child 7 s, which the audit waited for.
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
        var entry = environ
        while let variable = entry.pointee {
            if strncmp(variable, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(strdup(variable)) }
            entry += 1
        }
        environment.append(nil)
        defer { for pointer in environment { free(pointer) } }
        let spawned = posix_spawn(&pid, executable, &actions, nil, &argv, &environment)
        guard spawned == 0 else {
            return TextRecognizer.Unavailable(description: "the OCR data could not be checked (posix_spawn: \(String(cString: strerror(spawned))))")
        }
        // Waited for without blocking forever: a child that hangs is killed.
        let deadline = Timestamp.monotonic() &+ UInt64(seconds * 1e9)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Timestamp.monotonic() > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return TextRecognizer.Unavailable(description: "Tesseract did not finish loading its language data within \(Int(seconds)) s")
            }
            usleep(10_000)
        }
        let signaled = status & 0x7F
        if signaled != 0 {
            let name = signaled == SIGABRT ? "SIGABRT" : signaled == SIGFPE ? "SIGFPE" : signaled == SIGSEGV ? "SIGSEGV" : "signal \(signaled)"
            return TextRecognizer.Unavailable(
                description:
                    "Tesseract crashed (\(name)) loading or using its language data: the data is damaged; reinstall it (apt-get install --reinstall tesseract-ocr-eng)"
            )
        }
        let code = (status >> 8) & 0xFF
        return code == 0 ? nil : TextRecognizer.Unavailable(description: "the OCR data check failed (exit \(code))")
    }

    /// The child's side: loads the data and reads an image; exits 0 when both went well.
    static func child() -> Never {
        do {
            let recognizer = try TextRecognizer()
            exit(recognizer.selfTest() ? 0 : 3)
        } catch {
            // The reason is the parent's to find again, in-process, without a crash.
            exit(0)
        }
    }
}
