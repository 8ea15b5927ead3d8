import AuditClient
import Foundation
import XCTest

/// Screenshots through the real daemon: multipart audits from curl and auditctl, sibling
/// images, and every refusal with its status and code.
final class ScreenshotAuditTests: XCTestCase {
    static let screens = DaemonHarness.packageRoot.appendingPathComponent("Tests/Fixtures/screens/android")
    static let pair = "Bradley-svg__GB-Mobile-Application--Android---iOS-__greenbro_portfolio"
    static let otherPair = "userVre__Darkor.ai__darkor_settings"

    static func file(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: screens.appendingPathComponent(name))) }

    /// `POST /v1/audits` with a form of these parts (name, content type, bytes).
    func postForm(_ daemon: DaemonHarness, _ parts: [(String, String, [UInt8])]) throws -> DaemonHarness.Response {
        let form = MultipartBody(parts: parts.map { .init(name: $0.0, filename: $0.0, contentType: $0.1, bytes: $0.2) })
        return try daemon.request(
            "POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Type: \(form.contentType)\r\nContent-Length: \(form.bytes.count)\r\n\r\n",
            body: form.bytes)
    }

    func contrastFindings(_ json: Any?) -> [[String: Any]] {
        let findings = (json as? [String: Any])?["findings"] as? [[String: Any]] ?? []
        return findings.filter { ($0["rule"] as? String)?.hasPrefix("contrast") == true }
    }

    func testCurlFormAuditsWithColoursFromThePixels() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let run = try daemon.run(
            "curl",
            [
                "-s", "--unix-socket", daemon.socket,
                "-F", "snapshot=@" + Self.screens.appendingPathComponent(Self.pair + ".xml").path + ";type=application/xml",
                "-F", "screenshot=@" + Self.screens.appendingPathComponent(Self.pair + ".png").path + ";type=image/png",
                "http://localhost/v1/audits",
            ])
        let report = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        let contrast = contrastFindings(report)
        XCTAssertFalse(contrast.isEmpty, run.stdout.prefix(400).description)
        for finding in contrast {
            let evidence = finding["evidence"] as? [String: Any] ?? [:]
            XCTAssertEqual(evidence["source"] as? String, "screenshot")
            XCTAssertNotNil(evidence["crop"] as? String)
        }
        // The same findings went to the journal.
        let journalled = daemon.journalRecords().filter { ($0["rule"] as? String)?.hasPrefix("contrast") == true }
        XCTAssertEqual(journalled.count, contrast.count)
        // The metrics count the image phase.
        let metrics = try daemon.run("curl", ["-s", "--unix-socket", daemon.socket, "http://localhost/metrics"])
        let line = metrics.stdout.split(separator: "\n").first { $0.hasPrefix("auditd_audit_phase_seconds_total{phase=\"image\"} ") }
        XCTAssertGreaterThan(line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) } ?? 0, 0, metrics.stdout)
    }

    /// `--ocr` through the real daemon on a real pair: DeepEye's library draws two song
    /// titles cut off with "..." (judged by hand against the screenshot: both are); the
    /// same audit without OCR does not run the text checks at all.
    func testOCRFindsTheTitlesCutOffOnARealScreen() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--ocr-budget", "60", "--audit-budget", "90"])
        let dump = Self.screens.appendingPathComponent("DeepEyeCrypto__DeepEyeMusic__deepeye_library.xml").path
        let run = try daemon.auditctl(["audit", "--ocr", "--format", "json", "--fail-on", "never", "--timing", dump])
        XCTAssertEqual(run.status, 0, run.stderr)
        // Tesseract's OpenMP runtime reads its thread limit once, as it is loaded on the
        // first OCR audit: one thread (10 s of OCR a screen without), as the runtime itself
        // says (`omp_get_thread_limit`), unless the daemon was given a limit of its own.
        let inherited = ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"]
        let loaded = daemon.log.split(separator: "\n").filter { $0.contains("OCR loaded") }
        XCTAssertEqual(loaded.count, 1, daemon.log)
        XCTAssertTrue(loaded.first?.contains("openmp-threads=\(inherited ?? "1")") == true, "\(loaded)")
        let report = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])?.first)
        let findings = report["findings"] as? [[String: Any]] ?? []
        let truncated = findings.filter { $0["rule"] as? String == "text.truncated" }
        XCTAssertEqual(truncated.count, 2, "\(truncated)")
        let expected = truncated.compactMap { ($0["evidence"] as? [String: Any])?["expected"] as? String }
        XCTAssertTrue(expected.contains { $0.hasPrefix("Baby Blows Out the Candle | Happy Birthday to You | Baby ChaCha Nursery") }, "\(expected)")
        XCTAssertTrue(run.stderr.contains("ocr "), "Server-Timing names the OCR phase: \(run.stderr)")
        // Without OCR, the pixels alone find the same two drawn ellipses (text.truncated's
        // `ellipsis`), and text.unexposed, which needs OCR, does not run.
        let plain = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", dump])
        let plainReport = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [[String: Any]])?.first)
        let drawn = (plainReport["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "text.truncated" }
        XCTAssertEqual(drawn.compactMap { $0["result"] as? String }, ["ellipsis", "ellipsis"], "\(drawn)")
        XCTAssertFalse(plain.stdout.contains("\"text.unexposed\""), "without --ocr text.unexposed does not run")
    }

    /// OCR languages follow the screen's own text (issue 54): a Chinese screen loads Chinese
    /// data beside English; where none is installed, words read there are Chinese glyphs
    /// misread, and the text rules say so — incomplete, with the package to install — rather
    /// than report Latin pseudo-words as unexposed text.
    func testOCRReadsTheScreensOwnScriptOrSaysItCannot() throws {
        let dump = Self.screens.appendingPathComponent("clarithromycine__ad-auto__adauto_settings.xml").path
        let daemon = try DaemonHarness()
        try daemon.start(["--ocr-budget", "60", "--audit-budget", "90"])
        let run = try daemon.auditctl(["audit", "--ocr", "--format", "json", "--fail-on", "never", dump])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(daemon.log.contains("OCR loaded languages=eng+chi_sim"), "tesseract-ocr-chi-sim is installed by scripts/setup: \(daemon.log)")
        XCTAssertFalse(run.stdout.contains("cannot read"), run.stdout)
        // English data alone: the Chinese screen is not judged, and says why.
        let english = try DaemonHarness()
        let (data, original) = try Self.ownDataDirectory(english)
        try FileManager.default.createSymbolicLink(atPath: data.appendingPathComponent("eng.traineddata").path, withDestinationPath: original)
        try english.start(["--ocr-budget", "60", "--audit-budget", "90"], environment: ["AUDITD_OCR_DATA": data.path])
        let alone = try english.auditctl(["audit", "--ocr", "--format", "json", "--fail-on", "never", dump])
        let report = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(alone.stdout.utf8)) as? [[String: Any]])?.first)
        let reasons = (report["incomplete"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "text.unexposed" }
            .compactMap { $0["reason"] as? String }
        XCTAssertTrue(
            reasons.contains { $0.contains("the screen's text is Chinese, which OCR cannot read with eng") && $0.contains("tesseract-ocr-chi-sim") },
            "\(reasons)")
        XCTAssertFalse((report["findings"] as? [[String: Any]] ?? []).contains { $0["rule"] as? String == "text.unexposed" })
    }

    /// An empty Tesseract data directory in `daemon`'s own, and the installed English data's path.
    static func ownDataDirectory(_ daemon: DaemonHarness) throws -> (directory: URL, english: String) {
        let data = daemon.directory.appendingPathComponent("tessdata")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let original = try XCTUnwrap(
            ["/usr/share/tesseract-ocr/5/tessdata/eng.traineddata", "/usr/share/tesseract-ocr/4.00/tessdata/eng.traineddata"].first {
                FileManager.default.fileExists(atPath: $0)
            }, "tesseract-ocr-eng is not installed (scripts/setup installs it)")
        return (data, original)
    }

    /// The text rules' incomplete entries when the DeepEye pair is audited with `--ocr`.
    func ocrTextReasons(_ daemon: DaemonHarness) throws -> [String] {
        let dump = Self.screens.appendingPathComponent("DeepEyeCrypto__DeepEyeMusic__deepeye_library.xml").path
        let run = try daemon.auditctl(["audit", "--ocr", "--format", "json", "--fail-on", "never", dump])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])?.first)
        XCTAssertFalse((report["findings"] as? [Any] ?? []).isEmpty, "the other rules judged the screen")
        return (report["incomplete"] as? [[String: Any]] ?? []).filter { ($0["rule"] as? String)?.hasPrefix("text.") == true }.compactMap { $0["reason"] as? String }
    }

    /// Damaged language data (2,000 bytes of `eng.traineddata` flipped, where Tesseract
    /// asserts and aborts while loading it) crashed the whole daemon on the first OCR audit.
    /// OCR runs in a worker process: the audit is answered, the text rules say why they
    /// could not run, and the daemon serves on.
    func testDamagedOCRDataIsAReasonNotACrash() throws {
        let daemon = try DaemonHarness()
        let (data, original) = try Self.ownDataDirectory(daemon)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        for index in 200..<2200 { bytes[index] ^= 0xFF }
        try Data(bytes).write(to: data.appendingPathComponent("eng.traineddata"))
        try daemon.start(environment: ["AUDITD_OCR_DATA": data.path])
        let reasons = try ocrTextReasons(daemon)
        XCTAssertEqual(reasons.count, 2, "\(reasons)")
        XCTAssertTrue(reasons.allSatisfy { $0.contains("Tesseract crashed (SIGABRT) loading its language data: the data is damaged") }, "\(reasons)")
        XCTAssertEqual(try daemon.request("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n").status, 200, "the daemon serves on")
        XCTAssertTrue(daemon.process?.isRunning ?? false)
    }

    /// A phone-size screenshot dense with small text (seeded), made by Pillow, and the
    /// snapshot it goes with (one text of the screen's size).
    func denseScreen(_ daemon: DaemonHarness, seed: Int) throws -> (snapshot: [UInt8], image: [UInt8]) {
        let path = daemon.directory.appendingPathComponent("dense-\(seed).png").path
        let script = """
            import random, sys
            from PIL import Image, ImageDraw
            r = random.Random(int(sys.argv[2])); im = Image.new("RGB", (1080, 2400), "white"); d = ImageDraw.Draw(im)
            for y in range(0, 2400, 9):
                d.text((r.randint(0, 6), y), "".join(r.choice("abcdefghijklmnopqrstuvwxyz0123456789 ") for _ in range(190)), fill="black")
            im.save(sys.argv[1])
            """
        let made = try daemon.run("python3", ["-c", script, path, String(seed)])
        XCTAssertEqual(made.status, 0, made.stderr)
        let snapshot = Array(
            #"<hierarchy rotation="0"><node class="android.widget.TextView" text="Terms" package="com.example" bounds="[0,0][1080,2400]"/></hierarchy>"#.utf8)
        return (snapshot, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func postOCR(_ daemon: DaemonHarness, _ screen: (snapshot: [UInt8], image: [UInt8])) throws -> DaemonHarness.Response {
        let form = MultipartBody(parts: [
            .init(name: "snapshot", filename: "dense.xml", contentType: "application/xml", bytes: screen.snapshot),
            .init(name: "screenshot", filename: "dense.png", contentType: "image/png", bytes: screen.image),
        ])
        return try daemon.request(
            "POST /v1/audits?ocr=1&density=2.625 HTTP/1.1\r\nHost: x\r\nContent-Type: \(form.contentType)\r\nContent-Length: \(form.bytes.count)\r\n\r\n",
            body: form.bytes)
    }

    /// OCR stops at its budget in whatever phase Tesseract is: dense text ran 14–17 s under
    /// `--ocr-budget 1` when the budget was checked only while words were recognised. The
    /// worker is killed at the deadline (the OCR phase stays within the budget and a
    /// second's slack), and the next OCR audit has a worker again.
    func testOCRStopsAtItsBudgetInEveryPhase() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--ocr-budget", "1", "--audit-budget", "60"])
        let screen = try denseScreen(daemon, seed: 11)
        for round in 0..<2 {
            let response = try Self.postOCR(daemon, screen)
            XCTAssertEqual(response.status, 200, response.text)
            let timing = response.headers["server-timing"] ?? response.headers["Server-Timing"] ?? ""
            let ocr = try XCTUnwrap(timing.firstMatch(of: /ocr;dur=([0-9.]+)/).flatMap { Double($0.1) }, "round \(round): \(timing)")
            XCTAssertLessThan(ocr, 2_000, "round \(round): OCR took \(ocr) ms under a 1 s budget")
            let text = (response.json as? [String: Any])?["incomplete"] as? [[String: Any]] ?? []
            XCTAssertTrue(text.contains { ($0["reason"] as? String)?.contains("OCR stopped after") == true }, "\(text)")
        }
        XCTAssertEqual(try daemon.request("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n").status, 200)
    }

    /// OCR's memory counts: its worker's limit is reserved from the daemon's budget while it
    /// reads; a budget that cannot hold it makes the text rules incomplete, saying so.
    func testOCRMemoryIsReservedFromTheBudget() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--memory-limit", String(128 << 20), "--max-snapshot-bytes", String(8 << 20), "--ocr-memory-limit", String(256 << 20)])
        let reasons = try ocrTextReasons(daemon)
        XCTAssertEqual(reasons.count, 2, "\(reasons)")
        XCTAssertTrue(reasons.allSatisfy { $0.contains("OCR needs 256 MiB (--ocr-memory-limit)") }, "\(reasons)")
    }

    /// The OCR queue's wait is bounded: one OCR audit runs and four wait, each held to the
    /// OCR budget; past them the answer is 503 with Retry-After (16 waited about 15
    /// minutes when OCR ignored its budget).
    func testTheOCRQueueIsBounded() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--ocr-budget", "2", "--audit-budget", "60"])
        let screen = try denseScreen(daemon, seed: 12)
        // Nine clients send at once (each on its own connection), then read their answers.
        let form = MultipartBody(parts: [
            .init(name: "snapshot", filename: "dense.xml", contentType: "application/xml", bytes: screen.snapshot),
            .init(name: "screenshot", filename: "dense.png", contentType: "image/png", bytes: screen.image),
        ])
        let head = "POST /v1/audits?ocr=1&density=2.625 HTTP/1.1\r\nHost: x\r\nContent-Type: \(form.contentType)\r\nContent-Length: \(form.bytes.count)\r\n\r\n"
        var clients: [Int32] = []
        defer { for fd in clients { close(fd) } }
        for _ in 0..<9 {
            let fd = try daemon.connect()
            daemon.send(fd, Array(head.utf8) + form.bytes)
            clients.append(fd)
        }
        var all: [Int] = []
        for fd in clients {
            var buffer: [UInt8] = []
            all.append(daemon.readResponse(fd, buffer: &buffer)?.status ?? -1)
        }
        XCTAssertEqual(all.count, 9)
        XCTAssertGreaterThanOrEqual(all.filter { $0 == 503 }.count, 3, "\(all)")
        XCTAssertGreaterThanOrEqual(all.filter { $0 == 200 }.count, 1, "\(all)")
        XCTAssertEqual(all.filter { $0 != 200 && $0 != 503 }, [], "\(all)")
    }

    /// OCR has a budget of its own within the audit's: past it the text rules are
    /// incomplete with the reason, and the rest of the audit is judged as usual.
    func testOCRStopsAtItsOwnBudget() throws {
        let daemon = try DaemonHarness()
        try daemon.start(["--ocr-budget", "0.01"])
        let dump = Self.screens.appendingPathComponent("DeepEyeCrypto__DeepEyeMusic__deepeye_library.xml").path
        let run = try daemon.auditctl(["audit", "--ocr", "--format", "json", "--fail-on", "never", dump])
        XCTAssertEqual(run.status, 0, run.stderr)
        let report = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])?.first)
        let incomplete = report["incomplete"] as? [[String: Any]] ?? []
        let text = incomplete.filter { ($0["rule"] as? String)?.hasPrefix("text.") == true }
        XCTAssertEqual(text.count, 2, "\(incomplete)")
        XCTAssertTrue(text.allSatisfy { ($0["reason"] as? String)?.contains("OCR stopped") == true }, "\(text)")
        let findings = report["findings"] as? [[String: Any]] ?? []
        XCTAssertFalse(findings.isEmpty, "the other rules judged the screen")
        // Only what the pixels alone judge: the two drawn ellipses.
        let drawn = findings.filter { ($0["rule"] as? String)?.hasPrefix("text.") == true }
        XCTAssertEqual(drawn.compactMap { $0["result"] as? String }, ["ellipsis", "ellipsis"], "\(drawn)")
    }

    /// The verdicts read by hand on real pairs (docs/ocr.md), kept: lettering in a video
    /// feed and in a described thumbnail is text-in-image (notices), titles written in
    /// Unicode's bold and small-capital look-alikes are exposed, a date in a status bar
    /// the dump leaves out is the system's, and other words over a text element (a
    /// screenshot of another moment) are incomplete — no unexposed warning or error on any;
    /// titles wrapped over two lines and ellipsized are truncated.
    func testOCRVerdictsOnRealPairs() throws {
        let daemon = try DaemonHarness()
        // Budgets wide enough for a loaded machine: the verdicts are the point here.
        try daemon.start(["--ocr-budget", "60", "--audit-budget", "90"])
        let names = [
            "09franchico__auto-zap__tiktok_feed", "DeepEyeCrypto__DeepEyeMusic__deepeye_youtube",
            "G7-Enterprise__Control-Medicamentos-App__medicamentos_directory", "iniakponode__driveafrica__drive_monitor",
        ]
        let run = try daemon.auditctl(
            ["audit", "--ocr", "--format", "json", "--fail-on", "never"] + names.map { Self.screens.appendingPathComponent("\($0).xml").path })
        XCTAssertEqual(run.status, 0, run.stderr)
        let reports = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        func unexposed(_ name: String) -> [(severity: String, text: String)] {
            let report = reports.first { ($0["file"] as? String)?.contains(name) == true }
            return (report?["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "text.unexposed" }.map {
                ($0["severity"] as? String ?? "", ($0["evidence"] as? [String: Any])?["text"] as? String ?? "")
            }
        }
        let tiktok = unexposed(names[0])
        XCTAssertTrue(tiktok.allSatisfy { $0.severity == "notice" }, "\(tiktok)")
        XCTAssertTrue(tiktok.contains { $0.text.contains("CINTURAO") }, "the video's lettering, as text in a picture: \(tiktok)")
        XCTAssertEqual(unexposed(names[1]).map(\.severity), ["notice"], "only the thumbnail's lettering: \(unexposed(names[1]))")
        XCTAssertEqual(unexposed(names[2]).count, 0, "the status bar's date is the system's: \(unexposed(names[2]))")
        XCTAssertEqual(unexposed(names[3]).count, 0, "\(unexposed(names[3]))")
        // Two titles wrapped over two lines, the second ellipsized ("… dance li...",
        // "… | Hindi ..."): truncated, read against the picture; nothing cut without an
        // ellipsis on these four.
        let youtube = reports.first { ($0["file"] as? String)?.contains(names[1]) == true }
        let truncations = (youtube?["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "text.truncated" }
        let truncated = truncations.compactMap { ($0["evidence"] as? [String: Any])?["text"] as? String }
        XCTAssertTrue(truncated.contains { $0.hasPrefix("Trending songs") && $0.hasSuffix("...") }, "\(truncated)")
        XCTAssertTrue(truncated.contains { $0.hasPrefix("Love Mashup 2026") && $0.hasSuffix("...") }, "\(truncated)")
        let cut = reports.flatMap { $0["findings"] as? [[String: Any]] ?? [] }.filter { $0["result"] as? String == "cut" }
        XCTAssertTrue(cut.isEmpty, "\(cut)")
        let drive = reports.first { ($0["file"] as? String)?.contains(names[3]) == true }
        let reasons = (drive?["incomplete"] as? [[String: Any]] ?? []).compactMap { $0["reason"] as? String }
        XCTAssertTrue(reasons.contains { $0.contains("“NOT DRIVING”") && $0.contains("“IDLE”") }, "\(reasons)")
    }

    func testAuditctlSendsTheImageBesideEachSnapshot() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("auditd-pairs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in [Self.pair + ".xml", Self.pair + ".png", Self.otherPair + ".xml", Self.otherPair + ".png"] {
            try FileManager.default.copyItem(at: Self.screens.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let withImages = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", folder.path])
        XCTAssertEqual(withImages.status, 0, withImages.stderr)
        let reports = try JSONSerialization.jsonObject(with: Data(withImages.stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertEqual(reports.count, 2)
        XCTAssertFalse(reports.flatMap(contrastFindings).isEmpty)
        let without = try daemon.auditctl(["audit", "--format", "json", "--fail-on", "never", "--no-screenshots", folder.path])
        let plain = try JSONSerialization.jsonObject(with: Data(without.stdout.utf8)) as? [[String: Any]] ?? []
        XCTAssertTrue(plain.flatMap(contrastFindings).isEmpty)
        XCTAssertTrue(without.stdout.contains("no colours in this dialect"), without.stdout.prefix(300).description)
        // --screenshot names the image of one snapshot; with two it is a usage error.
        let explicit = try daemon.auditctl([
            "audit", "--fail-on", "never", "--screenshot", Self.screens.appendingPathComponent(Self.pair + ".png").path,
            Self.screens.appendingPathComponent(Self.pair + ".xml").path,
        ])
        XCTAssertEqual(explicit.status, 0, explicit.stderr)
        XCTAssertTrue(explicit.stdout.contains("[contrast.text]"), explicit.stdout)
        let twoSnapshots = try daemon.auditctl(["audit", "--screenshot", "x.png", folder.path])
        XCTAssertEqual(twoSnapshots.status, 2)
        XCTAssertTrue(twoSnapshots.stderr.contains("--screenshot goes with one snapshot"), twoSnapshots.stderr)
        // A mismatched pair is refused with both sizes named, exit 2.
        let mismatched = try daemon.auditctl([
            "audit", "--screenshot", Self.screens.appendingPathComponent("09franchico__auto-zap__tiktok_feed.png").path,
            Self.screens.appendingPathComponent(Self.pair + ".xml").path,
        ])
        XCTAssertEqual(mismatched.status, 2, mismatched.stdout + mismatched.stderr)
        XCTAssertTrue((mismatched.stdout + mismatched.stderr).contains("720 × 1600 px"), mismatched.stdout + mismatched.stderr)
        XCTAssertTrue((mismatched.stdout + mismatched.stderr).contains("1080 × 2400 px expected"), mismatched.stdout + mismatched.stderr)
    }

    func testRefusalsSayWhatAndHow() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let xml = try Self.file(Self.pair + ".xml")
        let png = try Self.file(Self.pair + ".png")
        func code(_ response: DaemonHarness.Response) -> String? {
            ((response.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
        }
        // The form alone, no screenshot: an ordinary audit.
        XCTAssertEqual(try postForm(daemon, [("snapshot", "application/xml", xml)]).status, 200)
        // A bomb: a PNG header claiming 100,000 × 100,000 pixels.
        var bomb = Array(png.prefix(33))
        bomb.replaceSubrange(16..<24, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        bomb.replaceSubrange(29..<33, with: crc32(Array(bomb[12..<29])))
        bomb += png[33...]
        let refusedBomb = try postForm(daemon, [("snapshot", "application/xml", xml), ("screenshot", "image/png", bomb)])
        XCTAssertEqual(refusedBomb.status, 413)
        XCTAssertEqual(code(refusedBomb), "screenshot-too-large")
        let truncated = try postForm(daemon, [("snapshot", "application/xml", xml), ("screenshot", "image/png", Array(png.prefix(png.count / 2)))])
        XCTAssertEqual(truncated.status, 400)
        XCTAssertEqual(code(truncated), "screenshot-malformed")
        let gif = try postForm(daemon, [("snapshot", "application/xml", xml), ("screenshot", "image/png", Array("GIF89a........".utf8))])
        XCTAssertEqual(gif.status, 415)
        XCTAssertEqual(code(gif), "screenshot-unsupported-format")
        let wrongType = try postForm(daemon, [("snapshot", "application/xml", xml), ("screenshot", "text/plain", png)])
        XCTAssertEqual(wrongType.status, 415)
        XCTAssertEqual(code(wrongType), "unsupported-screenshot-type")
        let mismatch = try postForm(daemon, [("snapshot", "application/xml", xml), ("screenshot", "image/png", Self.file("09franchico__auto-zap__tiktok_feed.png"))])
        XCTAssertEqual(mismatch.status, 422)
        XCTAssertEqual(code(mismatch), "screenshot-mismatch")
        XCTAssertEqual(try postForm(daemon, [("screenshot", "image/png", png)]).status, 400)
        XCTAssertEqual(code(try postForm(daemon, [("snapshot", "application/xml", xml), ("photo", "image/png", png)])), "unknown-part")
        XCTAssertEqual(code(try postForm(daemon, [("snapshot", "application/xml", xml), ("snapshot", "application/xml", xml)])), "duplicate-part")
        // A form cut before its closing boundary.
        let form = MultipartBody(parts: [.init(name: "snapshot", filename: "a.xml", contentType: "application/xml", bytes: xml)])
        let cut = Array(form.bytes.dropLast(30))
        let unterminated = try daemon.request("POST /v1/audits HTTP/1.1\r\nHost: x\r\nContent-Type: \(form.contentType)\r\nContent-Length: \(cut.count)\r\n\r\n", body: cut)
        XCTAssertEqual(unterminated.status, 400)
        XCTAssertEqual(code(unterminated), "bad-multipart")
        // The daemon is still well.
        XCTAssertEqual(try daemon.post(xml).status, 200)
    }

    /// CRC-32 (ISO-HDLC, as PNG chunks use), big-endian bytes.
    func crc32(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        return [UInt8(crc >> 24), UInt8((crc >> 16) & 255), UInt8((crc >> 8) & 255), UInt8(crc & 255)]
    }

    func testInspectValidateAndTheHTMLReportUseTheScreenshot() throws {
        let daemon = try DaemonHarness()
        try daemon.start()
        let dump = Self.screens.appendingPathComponent(Self.pair + ".xml").path
        let image = Self.screens.appendingPathComponent(Self.pair + ".png").path
        let inspect = try daemon.auditctl(["inspect", dump, "--screenshot", image])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
        XCTAssertTrue(inspect.stdout.contains("text \"Healthy\""), inspect.stdout.prefix(300).description)
        XCTAssertTrue(inspect.stdout.contains("pixels #39B54A on #E3F7E8"), inspect.stdout)
        let json = try daemon.auditctl(["inspect", "--format", "json", dump, "--screenshot", image])
        XCTAssertTrue(json.stdout.contains("\"pixels-per-point\": 2.625"), json.stdout.prefix(600).description)
        let valid = try daemon.auditctl(["validate", dump, "--screenshot", image])
        XCTAssertEqual(valid.status, 0, valid.stdout + valid.stderr)
        XCTAssertTrue(valid.stdout.contains("fits, 1080 × 2400 px at 2.625 px per pt"), valid.stdout)
        let wrong = try daemon.auditctl(["validate", dump, "--screenshot", Self.screens.appendingPathComponent("09franchico__auto-zap__tiktok_feed.png").path])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stdout.contains("[screenshot-mismatch]"), wrong.stdout)
        let html = try daemon.auditctl(["audit", "--format", "html", "--fail-on", "never", dump])
        XCTAssertEqual(html.status, 0, html.stderr)
        XCTAssertTrue(html.stdout.contains("<image class=\"screenshot\""), "the screenshot is drawn under the outlines")
        // Embedded, no external asset, and scaled to about twice what is drawn: the
        // 1080 × 2400 PNG (130 KB) becomes a 540-px JPEG of about a third of its size.
        let payload = try XCTUnwrap(html.stdout.components(separatedBy: "href=\"data:image/jpeg;base64,").dropFirst().first?.prefix { $0 != "\"" })
        XCTAssertTrue(payload.hasPrefix("/9j/"), "a JPEG")
        let original = try Data(contentsOf: URL(fileURLWithPath: image)).count
        XCTAssertLessThan(payload.count * 3 / 4, original / 2, "scaled down")
    }
}
