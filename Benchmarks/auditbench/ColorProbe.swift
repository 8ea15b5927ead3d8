import AuditCore
import Foundation

/// `auditbench colors`: reads `#RRGGBB #RRGGBB` pairs from standard input and prints what
/// AuditCore computes for each — WCAG ratio, APCA Lc, ΔE2000, and the first colour under
/// each simulated deficiency — for scripts/check-colors.py to compare with coloraide.
enum ColorProbe {
    static func run() {
        var output = ""
        while let line = readLine() {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let first = RGBA(String(parts[0])), let second = RGBA(String(parts[1])) else {
                output += "error\n"
                continue
            }
            let simulated = ColorMath.Deficiency.allCases.map { ColorMath.simulate(first, $0).hex }
            output += String(
                format: "%.12f %.6f %.8f ", ColorMath.contrastRatio(first, second),
                ColorMath.apcaContrast(text: first, background: second), ColorMath.deltaE2000(first, second))
            output += simulated.joined(separator: " ") + "\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
