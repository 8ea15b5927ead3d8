import Foundation
import XCTest

/// The HTML report in a real browser: headless Chromium driven by WebDriver
/// (`Browser/check_report.py`, Selenium), on the examples, on real dumps with their
/// screenshots, and on a run of 500 snapshots. Markers are checked at their elements'
/// positions and in their severity's colour in the painted page, the list has one entry
/// per finding, selection and filters work from the keyboard, and axe-core 4.x finds no
/// violation in the light and the dark scheme. scripts/setup installs Chromium, its driver,
/// Selenium and axe-core; without them these tests fail, saying what is missing.
final class HTMLReportBrowserTests: XCTestCase {
    static let checker = DaemonHarness.packageRoot.appendingPathComponent("Tests/IntegrationTests/Browser/check_report.py").path

    /// Audits `inputs` as HTML and as JSON, then runs the checker with `checks`.
    func check(_ daemon: DaemonHarness, _ inputs: [String], _ checks: [String], name: String) throws -> DaemonHarness.Run {
        let html = daemon.directory.appendingPathComponent("\(name).html").path
        let json = daemon.directory.appendingPathComponent("\(name).json").path
        let htmlRun = try daemon.auditctl(["audit", "--jobs", "4", "--fail-on", "never", "--format", "html", "--output", html] + inputs)
        XCTAssertEqual(htmlRun.status, 0, htmlRun.stderr)
        let jsonRun = try daemon.auditctl(["audit", "--jobs", "4", "--fail-on", "never", "--format", "json", "--output", json] + inputs)
        XCTAssertEqual(jsonRun.status, 0, jsonRun.stderr)
        let run = try daemon.run("python3", [Self.checker, html, json] + checks)
        XCTAssertEqual(run.status, 0, "\(name): \(run.stdout)\(run.stderr.suffix(2000))")
        return run
    }

    func testExamplesReportInABrowser() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let run = try check(
            daemon, [DaemonHarness.examples.path], ["--pixels", "--marker-contrast", "--transcripts", "--axe", "--keyboard", "--print", "--reflow", "--enlarge"], name: "examples")
        for line in [
            "markers at their elements' positions", "markers drawn in their worst severity's colour and shape", "light scheme: 0 violations",
            "dark scheme: 0 violations", "with the keyboard", "every finding shown", "reflows at 200% zoom",
            "ok: light scheme: ", "ok: dark scheme: ", "stand out from the pixels under them by 3:1",
            "7 transcripts open and draw their stops",
        ] {
            XCTAssertTrue(run.stdout.contains(line), "\(line): \(run.stdout)")
        }
        // Printed with each rule's help once (69 pages when it followed every finding; 42 with
        // the findings of WCAG's large-text thresholds).
        let pages = run.stdout.split(separator: "\n").first { $0.hasPrefix("ok: printed in ") }
            .flatMap { Int($0.dropFirst("ok: printed in ".count).prefix { $0.isNumber }) }
        XCTAssertLessThanOrEqual(try XCTUnwrap(pages, run.stdout), 45, run.stdout)
    }

    /// With a baseline, what got worse comes first: new / unchanged / fixed, and a filter by state.
    func testBaselineStatesLeadTheReport() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let baseline = daemon.directory.appendingPathComponent("baseline.json").path
        let next = daemon.directory.appendingPathComponent("checkout.xml")
        let xml = try String(contentsOf: DaemonHarness.examples.appendingPathComponent("checkout.xml"), encoding: .utf8)
        try xml.write(to: next, atomically: true, encoding: .utf8)
        _ = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", "--output", baseline, next.path])
        // The next build: one finding fixed (the close button gets a label), nothing new.
        XCTAssertTrue(xml.contains(#"image="icon_close""#))
        try xml.replacingOccurrences(of: #"image="icon_close""#, with: #"image="icon_close" label="Close""#).write(to: next, atomically: true, encoding: .utf8)
        let html = daemon.directory.appendingPathComponent("next.html").path
        _ = try daemon.auditctl(["audit", "--format", "html", "--fail-on", "never", "--baseline", baseline, "--output", html, next.path])
        let page = try String(contentsOfFile: html, encoding: .utf8)
        XCTAssertTrue(page.contains("<strong>Against the baseline:</strong>"), page.prefix(2000).description)
        XCTAssertTrue(page.contains("class=\"state state-new\">0 new</span>"), "nothing new")
        XCTAssertTrue(page.contains("class=\"state state-absent\">1 fixed</span>"), "the label fixed one finding")
        XCTAssertTrue(page.contains("<span class=\"delta\">−1 since the baseline: 0 new, 1 fixed</span>"), "the errors' delta")
        // Nothing is new: every marker is drawn faded as unchanged.
        let markers = page.components(separatedBy: "<a class=\"marker ").dropFirst()
        XCTAssertFalse(markers.isEmpty)
        XCTAssertTrue(markers.allSatisfy { $0.hasPrefix("sev-error unchanged\"") || $0.hasPrefix("sev-warning unchanged\"") || $0.hasPrefix("sev-notice unchanged\"") })
        XCTAssertTrue(page.contains("<select name=\"state\">"), "a filter by baseline state")
        XCTAssertTrue(page.contains("<h4>Fixed since the baseline</h4>"))
        XCTAssertLessThan(try XCTUnwrap(page.range(of: "Against the baseline")).lowerBound, try XCTUnwrap(page.range(of: "Findings by rule")).lowerBound)
        XCTAssertTrue(page.contains("<strong>No gate</strong>"), "--fail-on never: no verdict to give")
        // The verdict leads: with the gate, nothing new passes though errors remain…
        let gated = daemon.directory.appendingPathComponent("gated.html").path
        _ = try daemon.auditctl(["audit", "--format", "html", "--baseline", baseline, "--output", gated, next.path])
        let passing = try String(contentsOfFile: gated, encoding: .utf8)
        XCTAssertTrue(
            passing.contains("<p class=\"verdict verdict-pass\"><strong>Passes</strong> <code>--fail-on error</code>: no new or regressed finding at error or above.</p>"),
            passing.prefix(3000).description)
        XCTAssertLessThan(try XCTUnwrap(passing.range(of: "class=\"verdict")).lowerBound, try XCTUnwrap(passing.range(of: "Against the baseline")).lowerBound)
        // …and without a baseline the same file fails, the count of defects beside it.
        let plain = daemon.directory.appendingPathComponent("plain.html").path
        _ = try daemon.auditctl(["audit", "--format", "html", "--output", plain, next.path])
        let failing = try String(contentsOfFile: plain, encoding: .utf8)
        XCTAssertNotNil(
            failing.range(
                of: #"<p class="verdict verdict-fail"><strong>Fails</strong> <code>--fail-on error</code>: [0-9]+ findings at error or above in 1 snapshot\.</p>"#,
                options: .regularExpression), failing.prefix(3000).description)
    }

    /// Real dumps with the screenshots taken with them: the markers are drawn over the pixels.
    func testRealDumpsWithScreenshotsInABrowser() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let screens = DaemonHarness.packageRoot.appendingPathComponent("Tests/Fixtures/screens")
        var inputs: [String] = []
        for folder in ["android", "ios"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: screens.appendingPathComponent(folder).path).filter { $0.hasSuffix(".xml") }.sorted()
            inputs += names.prefix(3).map { screens.appendingPathComponent(folder).appendingPathComponent($0).path }
        }
        // A TV's landscape screen, drawn across the column.
        inputs.append(screens.appendingPathComponent("android/gpaneda__philo-automation-ott__philo_tv_search.xml").path)
        let run = try check(daemon, inputs, ["--pixels", "--marker-contrast", "--originals", "--transcripts", "--axe", "--reflow", "--enlarge"], name: "screens")
        XCTAssertTrue(run.stdout.contains("markers drawn in their worst severity's colour and shape"), run.stdout)
        // Every marker's edge 3:1 against the screenshot's pixels under it, in both schemes.
        XCTAssertEqual(run.stdout.components(separatedBy: "stand out from the pixels under them by 3:1").count - 1, 2, run.stdout)
        XCTAssertTrue(run.stdout.contains("ok: \(inputs.count) original screenshots a click away"), run.stdout)
        XCTAssertTrue(run.stdout.contains("\(inputs.count) transcripts open and draw their stops"), run.stdout)
        XCTAssertTrue(run.stdout.contains("ok: landscape drawings full width; a portrait one enlarges"), run.stdout)
        let html = try String(contentsOf: daemon.directory.appendingPathComponent("screens.html"), encoding: .utf8)
        XCTAssertEqual(html.components(separatedBy: "href=\"data:image/").count - 1, inputs.count, "every screenshot embedded")
        // The summary ends with the defects that repeat, each instance linked to its finding.
        let defects = try XCTUnwrap(html.components(separatedBy: "<caption>Defects with several instances</caption>").dropFirst().first)
        let table = defects.components(separatedBy: "</table>")[0]
        let links = table.components(separatedBy: "href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        XCTAssertFalse(links.isEmpty)
        XCTAssertTrue(links.allSatisfy { html.contains("id=\"\($0)\"") }, "\(links.filter { !html.contains("id=\"\($0)\"") })")
    }

    /// Hundreds of snapshots and thousands of findings: the page loads, lists every finding
    /// and filters without freezing the browser.
    func testFiveHundredSnapshotsInABrowser() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let folder = daemon.directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let examples = try FileManager.default.contentsOfDirectory(atPath: DaemonHarness.examples.path).filter { $0.hasSuffix(".xml") }.sorted()
        for index in 0..<500 {
            let source = DaemonHarness.examples.appendingPathComponent(examples[index % examples.count])
            try FileManager.default.copyItem(at: source, to: folder.appendingPathComponent(String(format: "screen-%03d-", index) + examples[index % examples.count]))
        }
        // axe-core over the summary, 15 sections and the last (the rest is the same markup;
        // ids checked unique over the whole page), both schemes.
        let run = try check(
            daemon, [folder.path], ["--keyboard", "--axe", "--axe-sections", "15", "--max-load-seconds", "30", "--sample-snapshots", "25"],
            name: "five-hundred")
        XCTAssertTrue(run.stdout.contains("with the keyboard"), run.stdout)
        XCTAssertTrue(run.stdout.contains("light scheme: 0 violations") && run.stdout.contains("dark scheme: 0 violations"), run.stdout)
    }
}

/// Each finding says what the screen reader says at its element (issue 29/32).
final class HTMLHeardAsTests: XCTestCase {
    func testFindingsSayHowTheirElementIsHeard() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let output = daemon.directory.appendingPathComponent("report.html").path
        let run = try daemon.auditctl([
            "audit", "--format", "html", "--output", output, "--fail-on", "never",
            DaemonHarness.examples.appendingPathComponent("android-login.xml").path,
        ])
        XCTAssertEqual(run.status, 0, run.stderr)
        let html = try String(contentsOfFile: output, encoding: .utf8)
        // The unlabelled "show password" button: heard as nothing but its role.
        XCTAssertTrue(html.contains("Heard at stop 5 as “button”"), String(html.prefix(200)))
        XCTAssertTrue(html.contains("Heard at stop 1 as “logo_bank_png, image”"))
    }
}
