import AuditCore
import Foundation
import XCTest

/// WCAG contrast at its boundaries, APCA against its published reference values, and a
/// cross-check of ratio, CIEDE2000 and CVD simulation against coloraide (PyPI).
final class ColorMathTests: XCTestCase {
    func color(_ hex: String) -> RGBA { RGBA(hex) ?? .black }

    func testKnownContrastPairs() {
        XCTAssertEqual(ColorMath.contrastRatio(color("#767676"), .white), 4.54, accuracy: 0.005)
        XCTAssertEqual(ColorMath.contrastRatio(color("#777777"), .white), 4.48, accuracy: 0.005)
        XCTAssertEqual(ColorMath.contrastRatio(.black, .white), 21, accuracy: 1e-9)
        XCTAssertEqual(ColorMath.contrastRatio(.white, .white), 1, accuracy: 1e-12)
        XCTAssertEqual(ColorMath.contrastRatio(color("#C7C7CC"), .white), 1.68, accuracy: 0.005)
        // Symmetric.
        XCTAssertEqual(ColorMath.contrastRatio(.white, color("#767676")), ColorMath.contrastRatio(color("#767676"), .white))
    }

    func testUnroundedComparisonAndDisplay() {
        // #777777 on white is 4.478…: it fails 4.5 even though it would round to 4.5.
        let ratio = ColorMath.contrastRatio(color("#777777"), .white)
        XCTAssertLessThan(ratio, 4.5)
        XCTAssertEqual(ColorMath.displayed(4.4999), 4.49)
        XCTAssertEqual(ColorMath.displayed(4.5), 4.5)
        // The 0.04045 threshold: channel value 10 (0.0392) is on the linear segment.
        XCTAssertEqual(ColorMath.linear(10), (10.0 / 255) / 12.92, accuracy: 1e-15)
        XCTAssertEqual(ColorMath.linear(11), pow(((11.0 / 255) + 0.055) / 1.055, 2.4), accuracy: 1e-15)
    }

    func testAPCAReferenceValues() {
        // The reference values published with APCA-W3 0.0.98G-4g.
        let cases: [(String, String, Double)] = [
            ("#888888", "#FFFFFF", 63.056469930209424), ("#FFFFFF", "#888888", -68.54146436644962),
            ("#000000", "#AAAAAA", 58.146262578561334), ("#AAAAAA", "#000000", -56.24113336839742),
            ("#112233", "#DDEEFF", 91.66830811481631), ("#DDEEFF", "#112233", -93.06770049484275),
        ]
        for (text, background, expected) in cases {
            XCTAssertEqual(ColorMath.apcaContrast(text: color(text), background: color(background)), expected, accuracy: 1e-6, "\(text) on \(background)")
        }
        XCTAssertEqual(ColorMath.apcaContrast(text: .white, background: .white), 0)
    }

    func testCVDSimulationAndDeltaE() {
        XCTAssertEqual(ColorMath.deltaE2000(color("#007AFF"), color("#007AFF")), 0, accuracy: 1e-9)
        // Red and green are far apart for normal vision and close under deuteranopia.
        let red = color("#FF3B30"), green = color("#34C759")
        let normal = ColorMath.deltaE2000(red, green)
        let deutan = ColorMath.deltaE2000(ColorMath.simulate(red, .deuteranopia), ColorMath.simulate(green, .deuteranopia))
        XCTAssertGreaterThan(normal, 50)
        XCTAssertLessThan(deutan, normal / 2)
        // Greys are unchanged by every simulation.
        for deficiency in ColorMath.Deficiency.allCases {
            XCTAssertEqual(ColorMath.simulate(color("#808080"), deficiency), color("#808080"))
        }
    }

    func testCrossCheckAgainstColoraide() throws {
        let script = TestSupport.packageRoot.appendingPathComponent("scripts/check-colors.py").path
        let tool = TestSupport.packageRoot.appendingPathComponent(".build/debug/auditbench").path
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tool), "build auditbench first (swift build)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--count", "3000", "--tool", tool]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output)
        XCTAssertTrue(output.contains("3000 pairs"), output)
    }
}
