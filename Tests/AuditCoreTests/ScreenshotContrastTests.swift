@testable import AuditCore
import XCTest

/// Colours from pixels: synthetic screens drawn with exact colours (anti-aliased text,
/// gradients, overlays, pills), audited as uiautomator dumps with their screenshot.
final class ScreenshotContrastTests: XCTestCase {
    /// A 400 × 200 px white screen with `text` drawn at (20, 60) in `color`, its node's
    /// frame 360 × 48 px at density 4 (12 dp high: too low for large text).
    func textScreen(
        _ color: String, background: String = "#FFFFFF", extraShapes: [[String: Any]] = [],
        nodes extra: String = ""
    ) throws -> (Snapshot, TestImages.Verdicts) {
        let files = try TestImages.make([
            "screen.png": [
                "width": 400, "height": 200, "background": background,
                "shapes": extraShapes + [["kind": "text", "at": [24, 64], "text": "Pay now", "size": 34, "color": color]],
            ]
        ])
        let dump = try TestImages.dump(width: 400, height: 200, density: 4, TestImages.textNode("pay", "Pay now", (20, 56, 360, 48)) + extra)
        let snapshot = try dump.attaching(ImageDecoder.decode(TestImages.bytes(files["screen.png"])))
        return (snapshot, TestImages.contrast(snapshot))
    }

    func evidence(_ finding: TestImages.Verdicts.Found, _ key: String) -> JSON? { finding.evidence.first { $0.0.rawValue == key }?.1 }

    func testTheBoundaryPairsFallOnTheirSides() throws {
        // #777777 on white is 4.48:1 and fails 4.5; #767676 is 4.54:1 and passes.
        let (_, failing) = try textScreen("#777777")
        let finding = try XCTUnwrap(failing.findings.first { $0.ruleID == "contrast.text" }, "\(failing.incompletes.map(\.reason))")
        XCTAssertEqual(finding.severity, .error)
        XCTAssertEqual(evidence(finding, "ratio"), .number(ColorMath.displayed(ColorMath.contrastRatio(RGBA("#777777")!, .white))))
        XCTAssertLessThan(ColorMath.contrastRatio(RGBA("#777777")!, .white), 4.5)
        XCTAssertEqual(evidence(finding, "foreground"), .string("#777777"))
        XCTAssertEqual(evidence(finding, "background"), .string("#FFFFFF"))
        XCTAssertEqual(evidence(finding, "source"), .string("screenshot"))
        XCTAssertEqual(evidence(finding, "crop"), .string("21,57,358,46"))
        XCTAssertEqual(evidence(finding, "large-text"), .bool(false))
        let (_, passing) = try textScreen("#767676")
        XCTAssertTrue(passing.findings.isEmpty, "\(passing.findings)")
        XCTAssertTrue(passing.incompletes.filter { $0.element != nil }.isEmpty, "\(passing.incompletes.map(\.reason))")
    }

    func testDarkThemesAndColouredText() throws {
        // Light grey on near-black: #5A5A5A on #121212 is 2.64:1.
        let (_, dark) = try textScreen("#5A5A5A", background: "#121212")
        let finding = try XCTUnwrap(dark.findings.first)
        XCTAssertEqual(evidence(finding, "ratio"), .number(ColorMath.displayed(ColorMath.contrastRatio(RGBA("#5A5A5A")!, RGBA("#121212")!))))
        XCTAssertEqual(evidence(finding, "background"), .string("#121212"))
        // White on a saturated blue passes: 8.59:1.
        let (_, blue) = try textScreen("#FFFFFF", background: "#0040A0")
        XCTAssertTrue(blue.findings.isEmpty, "\(blue.findings)")
    }

    func testTextOnAPillIsJudgedAgainstThePillNotThePage() throws {
        // Black text on a lavender pill; the page around the pill's rounded ends is white.
        // Against the pill it passes; "white on lavender" (1.3:1) would be a false finding.
        let (_, report) = try textScreen(
            "#1A1A1A",
            extraShapes: [
                ["kind": "disc", "box": [20, 56, 60, 48], "color": "#E6DEF6"],
                ["kind": "disc", "box": [320, 56, 60, 48], "color": "#E6DEF6"],
                ["kind": "rect", "box": [50, 56, 300, 48], "color": "#E6DEF6"],
            ])
        XCTAssertTrue(report.findings.isEmpty, "\(report.findings)")
        XCTAssertTrue(report.incompletes.isEmpty, "\(report.incompletes.map(\.reason))")
    }

    func testGradientsImagesAndCoversAreIncompleteNotGuessed() throws {
        let (_, gradient) = try textScreen("#FFFFFF", extraShapes: [["kind": "gradient", "box": [0, 0, 400, 200], "from": "#000000", "to": "#FFFFFF"]])
        XCTAssertTrue(gradient.findings.isEmpty, "\(gradient.findings)")
        XCTAssertTrue(
            gradient.incompletes.contains { $0.element != nil && ($0.reason.contains("gradient") || $0.reason.contains("not on one colour")) },
            "\(gradient.incompletes.map(\.reason))")
        // A toolbar drawn after the text, over it: its pixels are the toolbar's.
        let toolbar =
            #"<node index="1" text="" class="android.widget.LinearLayout" package="com.example" enabled="true" bounds="[0,40][400,120]"><node index="0" text="Menu" class="android.widget.TextView" package="com.example" enabled="true" bounds="[300,60][380,100]"/></node>"#
        let (_, covered) = try textScreen("#777777", nodes: toolbar)
        XCTAssertTrue(covered.incompletes.contains { $0.reason.hasPrefix("covered in the screenshot by") }, "\(covered.incompletes.map(\.reason))")
        XCTAssertFalse(covered.findings.contains { $0.elementID == "pay" })
    }

    func testBlankBlackAndOutsideCropsSayWhy() throws {
        let files = try TestImages.make([
            "black.png": ["width": 400, "height": 200, "background": "#000000"],
            "white.png": ["width": 400, "height": 200, "background": "#FFFFFF"],
        ])
        let nodes =
            TestImages.textNode("pay", "Pay", (20, 56, 360, 48)) + TestImages.textNode("tiny", "x", (20, 150, 3, 20))
            + TestImages.textNode("half", "Half", (300, 180, 200, 40))
        let dump = try TestImages.dump(width: 400, height: 200, density: 4, nodes)
        for (name, expected) in [("black.png", "all black"), ("white.png", "one colour (#FFFFFF)")] {
            let report = TestImages.contrast(try dump.attaching(ImageDecoder.decode(TestImages.bytes(files[name]))))
            let reasons = Dictionary(
                report.incompletes.compactMap { incomplete in incomplete.elementID.map { ($0, incomplete.reason) } },
                uniquingKeysWith: { first, _ in first })
            XCTAssertTrue(reasons["pay"]?.contains(expected) == true, "\(name): \(reasons)")
            XCTAssertTrue(reasons["tiny"]?.contains("too small") == true, "\(name): \(reasons)")
            XCTAssertTrue(reasons["half"]?.contains("partly outside") == true, "\(name): \(reasons)")
            XCTAssertTrue(report.findings.isEmpty)
        }
    }

    func testIconsAgainstTheirSurroundings() throws {
        for (glyph, fails) in [("#C7C7CC", true), ("#8E8E93", false)] {
            let files = try TestImages.make([
                "icon.png": [
                    "width": 200, "height": 200, "background": "#FFFFFF",
                    "shapes": [["kind": "disc", "box": [60, 60, 80, 80], "color": glyph]],
                ]
            ])
            let dump = try TestImages.dump(width: 200, height: 200, density: 2, TestImages.iconNode("search", (50, 50, 100, 100)))
            let report = TestImages.contrast(try dump.attaching(ImageDecoder.decode(TestImages.bytes(files["icon.png"]))))
            let finding = report.findings.first { $0.ruleID == "contrast.non-text" }
            XCTAssertEqual(finding != nil, fails, "\(glyph): \(report.findings) \(report.incompletes.map(\.reason))")
            if let finding {
                XCTAssertEqual(evidence(finding, "foreground"), .string(glyph))
                XCTAssertEqual(evidence(finding, "background"), .string("#FFFFFF"))
                XCTAssertEqual(evidence(finding, "source"), .string("screenshot"))
            }
        }
    }

    /// A thin "⋮" (three 6-px dots, under 1% of its 100-px frame) in a pale grey is read,
    /// not taken for "nothing differs".
    func testAThinIconIsRead() throws {
        let dots: [[String: Any]] = [30, 47, 64].map { ["kind": "disc", "box": [97, $0, 6, 6], "color": "#C7C7CC"] }
        let files = try TestImages.make(["dots.png": ["width": 200, "height": 200, "background": "#FFFFFF", "shapes": dots]])
        let dump = try TestImages.dump(width: 200, height: 200, density: 2, TestImages.iconNode("more", (50, 0, 100, 100)))
        let report = TestImages.contrast(try dump.attaching(ImageDecoder.decode(TestImages.bytes(files["dots.png"]))))
        let finding = try XCTUnwrap(report.findings.first { $0.ruleID == "contrast.non-text" }, "\(report.incompletes.map(\.reason))")
        XCTAssertEqual(evidence(finding, "foreground"), .string("#C7C7CC"))
    }

    /// The size of text a dump does not declare is read from its glyphs: #7F7F7F on white
    /// (3.95:1) in a frame 30 pt high fails as 11-pt text and passes as 30-pt text, and the
    /// evidence says how it was measured. The frame alone could not tell them apart.
    func testTextSizeIsReadFromTheInk() throws {
        for (size, fails) in [(22, true), (60, false)] {
            let files = try TestImages.make([
                "text.png": [
                    "width": 600, "height": 200, "background": "#FFFFFF",
                    "shapes": [["kind": "text", "at": [20, 60], "text": "Shipping days", "size": size, "color": "#7F7F7F"]],
                ]
            ])
            let dump = try TestImages.dump(width: 600, height: 200, density: 2, TestImages.textNode("t", "Shipping days", (10, 40, 580, 120)))
            let report = TestImages.contrast(try dump.attaching(ImageDecoder.decode(TestImages.bytes(files["text.png"]))))
            let finding = report.findings.first { $0.ruleID == "contrast.text" }
            XCTAssertEqual(finding != nil, fails, "size \(size): \(report.findings) \(report.incompletes.map(\.reason))")
            if let finding {
                XCTAssertEqual(finding.severity, .error, "not a notice: the ink decides")
                XCTAssertEqual(evidence(finding, "large-text"), .bool(false))
                if case .string(let basis)? = evidence(finding, "text-size") {
                    XCTAssertTrue(basis.hasPrefix("not large: about") && basis.contains("glyphs' ink"), basis)
                } else {
                    XCTFail("no text-size evidence")
                }
            }
        }
        // The decision on its own: at 2 px per pt, 40 px of ink with descenders is 20.4 pt or
        // more (large); 20 px without, regular, at most 15.2 pt (not large); 24 px without is
        // 15.4–18.2 pt: undecided when regular, large when bold (14 pt bold).
        func large(_ height: Int, stroke: Int, descenders: Bool) -> Bool? {
            TextInk(lineHeight: height, stroke: stroke, lines: 1, hasDescenders: descenders).isLarge(pixelsPerPoint: 2, largeSize: 18, largeBoldSize: 14)
        }
        XCTAssertEqual(large(40, stroke: 4, descenders: true), true)
        XCTAssertEqual(large(20, stroke: 2, descenders: false), false)
        XCTAssertNil(large(24, stroke: 2, descenders: false))
        XCTAssertEqual(large(24, stroke: 4, descenders: false), true)
    }

    /// Dense bold text at 1×, tight in its frame, covers nearly as much of the crop as its
    /// background: still read as ink on background, not "no one background colour".
    func testDenseBoldTextIsRead() throws {
        let files = try TestImages.make([
            "dense.png": [
                "width": 200, "height": 100, "background": "#FFFFFF",
                "shapes": [
                    ["kind": "rect", "box": [0, 20, 200, 60], "color": "#D0D0D0"],
                    ["kind": "text", "at": [4, 34], "text": "MWMWM", "size": 26, "color": "#FFFFFF"],
                ],
            ]
        ])
        let dump = try TestImages.dump(width: 200, height: 100, density: 1, TestImages.textNode("t", "MWMWM", (2, 37, 140, 24)))
        let report = TestImages.contrast(try dump.attaching(ImageDecoder.decode(TestImages.bytes(files["dense.png"]))))
        let finding = try XCTUnwrap(report.findings.first { $0.ruleID == "contrast.text" }, "\(report.incompletes.map(\.reason))")
        XCTAssertEqual(evidence(finding, "foreground"), .string("#FFFFFF"))
        XCTAssertEqual(evidence(finding, "background"), .string("#D0D0D0"))
    }

    /// A floating action button with a soft shadow: the blue (#2196F3, 3.12:1 on white) is
    /// judged against the page, not the grey of its shadow (2.4:1), so it passes; without a
    /// page beyond the grey, the grey is its surroundings and it fails.
    func testAButtonsShadowIsNotItsBackground() throws {
        for (page, fails) in [("#FFFFFF", false), ("#E0E0E0", true)] {
            let files = try TestImages.make([
                "fab.png": [
                    "width": 200, "height": 200, "background": page,
                    "shapes": [
                        ["kind": "disc", "box": [45, 45, 110, 110], "color": "#E0E0E0"],
                        ["kind": "disc", "box": [50, 50, 100, 100], "color": "#2196F3"],
                    ],
                ]
            ])
            let dump = try TestImages.dump(width: 200, height: 200, density: 2, TestImages.iconNode("fab", (50, 50, 100, 100)))
            let report = TestImages.contrast(try dump.attaching(ImageDecoder.decode(TestImages.bytes(files["fab.png"]))))
            let finding = report.findings.first { $0.ruleID == "contrast.non-text" }
            XCTAssertEqual(finding != nil, fails, "page \(page): \(report.findings) \(report.incompletes.map(\.reason))")
        }
    }

    func testTheScreenshotMustFitItsSnapshot() throws {
        let files = try TestImages.make([
            "tall.png": ["width": 400, "height": 240, "background": "#FFFFFF"],
            "short.png": ["width": 400, "height": 150, "background": "#FFFFFF"],
            "wide.png": ["width": 400, "height": 300, "background": "#FFFFFF"],
            "landscape.png": ["width": 200, "height": 100, "background": "#FFFFFF"],
            "retina.png": ["width": 800, "height": 400, "background": "#FFFFFF"],
        ])
        let dump = try TestImages.dump(width: 400, height: 200, density: 1, TestImages.textNode("pay", "Pay", (20, 56, 360, 48)))
        // A system bar below the dump's root: accepted, with a note.
        let tall = try dump.attaching(ImageDecoder.decode(TestImages.bytes(files["tall.png"])))
        XCTAssertTrue(tall.notes.contains { $0.contains("40 px taller") }, "\(tall.notes)")
        XCTAssertEqual(tall.screenshot?.pixelsPerPoint, 1)
        // The dump's pixels fix the size: a screenshot of the same aspect at another size is
        // another screen (or a resized one), refused.
        for (name, words) in [("short.png", "shorter"), ("wide.png", "aspect"), ("retina.png", "another size"), ("landscape.png", "another size")] {
            XCTAssertThrowsError(try dump.attaching(ImageDecoder.decode(TestImages.bytes(files[name]))), name) { error in
                let error = error as? ImageError
                XCTAssertEqual(error?.code, .mismatch, name)
                XCTAssertTrue(error?.message.contains(words) == true, "\(name): \(error?.message ?? "")")
                // Both sizes are named.
                XCTAssertTrue(error?.message.contains("400 × 200 pt") == true, "\(name): \(error?.message ?? "")")
            }
        }
        // A native snapshot's scale fixes the whole size: 800 × 480 for a 400 × 200 pt screen
        // at scale 2 is refused (a dump's root may leave out a bar; a native snapshot's may not).
        let native = try SnapshotParser().parse(
            #"<snapshot version="1" platform="ios" width="400" height="200" scale="2"><element id="w" role="window" frame="0,0,400,200"/></snapshot>"#)
        let nativeFiles = try TestImages.make([
            "exact.png": ["width": 800, "height": 400, "background": "#FFFFFF"],
            "taller.png": ["width": 800, "height": 480, "background": "#FFFFFF"],
        ])
        XCTAssertEqual(try native.attaching(ImageDecoder.decode(TestImages.bytes(nativeFiles["exact.png"]))).screenshot?.pixelsPerPoint, 2)
        XCTAssertThrowsError(try native.attaching(ImageDecoder.decode(TestImages.bytes(nativeFiles["taller.png"])))) { error in
            XCTAssertEqual((error as? ImageError)?.code, .mismatch, "\(error)")
        }
        // Appium sources have no scale: the image width over the screen's points is it.
        let appium = try SnapshotParser().parse(
            #"<AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="A" x="0" y="0" width="400" height="200"/></AppiumAUT>"#)
        XCTAssertEqual(try appium.attaching(ImageDecoder.decode(TestImages.bytes(files["retina.png"]))).screenshot?.pixelsPerPoint, 2)
        let portrait = try TestImages.dump(width: 200, height: 400, density: 1, "")
        XCTAssertThrowsError(try portrait.attaching(ImageDecoder.decode(TestImages.bytes(files["landscape.png"])))) { error in
            XCTAssertTrue((error as? ImageError)?.message.contains("landscape and the snapshot portrait") == true, "\(error)")
        }
    }

    /// Mail's dots, from pixels: two rows alike but for the colour of their dot.
    func testColourOnlyDotsAreFoundInThePixels() throws {
        func rows(_ second: String) throws -> [TestImages.Verdicts.Found] {
            let files = try TestImages.make([
                "mail.png": [
                    "width": 400, "height": 200, "background": "#FFFFFF",
                    "shapes": [
                        ["kind": "disc", "box": [10, 30, 20, 20], "color": "#007AFF"],
                        ["kind": "disc", "box": [10, 130, 20, 20], "color": second],
                    ],
                ]
            ])
            func row(_ n: Int, _ y: Int) -> String {
                #"<node index="\#(n)" text="" class="android.widget.LinearLayout" package="com.example" clickable="true" enabled="true" bounds="[0,\#(y)][400,\#(y + 100)]">"#
                    + #"<node index="0" text="" resource-id="dot\#(n)" content-desc="Unread" class="android.widget.ImageView" package="com.example" enabled="true" bounds="[6,\#(y + 26)][34,\#(y + 54)]"/></node>"#
            }
            // At density 2 the dots are 14 dp: dots, whose colour the pixels may compare.
            let dump = try TestImages.dump(width: 400, height: 200, density: 2, row(0, 0) + row(1, 100))
            let snapshot = try dump.attaching(ImageDecoder.decode(TestImages.bytes(files["mail.png"])))
            let report = TestImages.audit(snapshot, rules: [ColorOnlyGroupRule.self])
            return report.findings
        }
        let differing = try rows("#FF9500")
        XCTAssertEqual(differing.map(\.elementID), ["dot1"], "\(differing)")
        XCTAssertEqual(differing.first.flatMap { evidence($0, "source") }, .string("screenshot"))
        XCTAssertEqual(differing.first.flatMap { evidence($0, "colors") }, .array([.string("#007AFF"), .string("#FF9500")]))
        XCTAssertTrue(try rows("#007AFF").isEmpty, "the same colour twice is no difference")
    }

    /// A selected tab told from the others by its colour alone, from pixels.
    func testSelectedTabByColourAloneIsFoundInThePixels() throws {
        func tabs(_ selectedColour: String) throws -> [TestImages.Verdicts.Found] {
            let files = try TestImages.make([
                "tabs.png": [
                    "width": 400, "height": 100, "background": "#FFFFFF",
                    "shapes": [
                        ["kind": "text", "at": [30, 30], "text": "Home", "size": 30, "color": selectedColour],
                        ["kind": "text", "at": [230, 30], "text": "Home", "size": 30, "color": "#8E8E93"],
                    ],
                ]
            ])
            func tab(_ n: Int, _ x: Int, selected: Bool) -> String {
                #"<node index="\#(n)" text="Home" resource-id="tab\#(n)" class="android.widget.TabView" package="com.example" clickable="true" enabled="true" selected="\#(selected)" bounds="[\#(x),20][\#(x + 180),80]"/>"#
            }
            let dump = try TestImages.dump(width: 400, height: 100, density: 1, tab(0, 20, selected: true) + tab(1, 220, selected: false))
            let snapshot = try dump.attaching(ImageDecoder.decode(TestImages.bytes(files["tabs.png"])))
            return TestImages.audit(snapshot, rules: [ColorOnlyStateRule.self]).findings
        }
        let tinted = try tabs("#007AFF")
        XCTAssertEqual(tinted.map(\.elementID), ["tab0"], "\(tinted)")
        XCTAssertEqual(tinted.first.flatMap { evidence($0, "source") }, .string("screenshot"))
        XCTAssertTrue(try tabs("#8E8E93").isEmpty, "alike in the pixels: no difference")
    }

    /// A link between two texts, told from them by a colour too close to theirs, from pixels.
    func testLinkBesideItsTextIsComparedInThePixels() throws {
        func sentence(_ linkColour: String) throws -> [TestImages.Verdicts.Found] {
            let files = try TestImages.make([
                "link.png": [
                    "width": 400, "height": 60, "background": "#FFFFFF",
                    "shapes": [
                        ["kind": "text", "at": [10, 14], "text": "Read", "size": 24, "color": "#333333"],
                        ["kind": "text", "at": [90, 14], "text": "terms", "size": 24, "color": linkColour],
                        ["kind": "text", "at": [190, 14], "text": "now", "size": 24, "color": "#333333"],
                    ],
                ]
            ])
            // A native snapshot that declares no colours: the pixels give them.
            let xml = """
                <snapshot version="1" platform="android" width="400" height="60" scale="1"><element id="root" role="window" frame="0,0,400,60">\
                <element id="p" role="container" frame="0,0,400,60">\
                <element id="read" role="text" text="Read" frame="6,8,80,42"/>\
                <element id="terms" role="link" text="terms" frame="86,8,100,42"/>\
                <element id="now" role="text" text="now" frame="186,8,80,42"/>\
                </element></element></snapshot>
                """
            let snapshot = try SnapshotParser().parse(xml).attaching(ImageDecoder.decode(TestImages.bytes(files["link.png"])))
            return TestImages.audit(snapshot, rules: [ColorOnlyLinkRule.self]).findings
        }
        let close = try sentence("#555555")
        XCTAssertEqual(close.map(\.elementID), ["terms"], "\(close)")
        XCTAssertEqual(close.first.flatMap { evidence($0, "source") }, .string("screenshot"))
        // Orange against dark grey is 5.3:1 between link and text: told apart by lightness too.
        XCTAssertTrue(try sentence("#FF8800").isEmpty, "3:1 or more between link and text passes")
    }
}

/// Text sizes against WCAG's large text in the platform's unit (issue 54): Latin and Chinese
/// text rendered at known sizes either side of 24 sp and 18.66 sp bold, grey on white
/// (3.45:1, which fails normal text and passes large), on a 3.0-density screen
/// (`Tests/Fixtures/images/text-sizes`: made by its `make.py`).
final class TextSizeTests: XCTestCase {
    func testSizesEitherSideOfTheThresholdsInEachScript() throws {
        let folder = TestSupport.fixtures.appendingPathComponent("images/text-sizes")
        let snapshot = try SnapshotParser(options: .init(androidDensity: 3))
            .parse([UInt8](Data(contentsOf: folder.appendingPathComponent("text-sizes.xml"))))
            .attaching(ImageDecoder.decode([UInt8](Data(contentsOf: folder.appendingPathComponent("text-sizes.png")))))
        let verdicts = TestImages.contrast(snapshot)
        func found(_ id: String) -> TestImages.Verdicts.Found? { verdicts.findings.first { $0.elementID == "com.example:id/\(id)" } }
        // Normal size: 3.45:1 fails, whatever the script.
        for (id, size) in [("latin-20", 20.0), ("caps-22", 22), ("cjk-20", 20), ("bold-17", 17)] {
            let finding = try XCTUnwrap(found(id), "\(id) is normal text: 3.45:1 fails 4.5:1")
            XCTAssertEqual(finding.severity, .error, id)
            XCTAssertEqual(finding.evidence.first { $0.0 == .largeText }?.1, .bool(false), id)
            // The size the ink suggests is within a tenth of the size drawn.
            guard case .number(let estimate)? = finding.evidence.first(where: { $0.0 == .estimatedFontSize })?.1 else {
                return XCTFail("\(id): no estimate")
            }
            XCTAssertLessThanOrEqual(abs(estimate - size) / size, 0.1, "\(id): estimated \(estimate) for \(size)")
            // The evidence says the scale the ink's pixels were divided by, and what set it.
            XCTAssertNotNil(finding.evidence.first { $0.0 == .density }?.1.stringValue?.range(of: #"^[0-9.]+ px per \w+, from "#, options: .regularExpression), id)
            guard case .string(let said)? = finding.evidence.first(where: { $0.0 == .textSize })?.1 else { return XCTFail(id) }
            XCTAssertTrue(said.contains("large from 24 dp, or 18.66 dp bold"), said)
        }
        // Large: 26 sp, and 21 sp bold, pass at 3.45:1 (capitals alone may stay undecided:
        // a notice at most, never an error).
        for id in ["latin-26", "cjk-26", "bold-21", "caps-26"] {
            XCTAssertNotEqual(found(id)?.severity, .error, "\(id) is large text")
        }
        XCTAssertNil(found("cjk-26"))
        XCTAssertNil(found("latin-26"))
        XCTAssertNil(found("bold-21"))
        XCTAssertEqual(TextScript.of("设置中心"), .ideographic)
        XCTAssertEqual(TextScript.of("Settings 设"), .alphabetic)
    }
}

/// Thin digits and short labels (issue 54): a calendar's "21" and "JUN" in a light face,
/// light grey on white in a tall frame, leave few ink pixels; their colour is read from the
/// strokes all the same and judged, where "no text pixels stand out" gave up.
final class ThinTextTests: XCTestCase {
    func verdicts(_ text: String, color: String, size: Int) throws -> TestImages.Verdicts {
        let files = try TestImages.make([
            "screen.png": [
                "width": 400, "height": 400, "background": "#FFFFFF",
                "shapes": [["kind": "text", "at": [60, 150], "text": text, "size": size, "color": color, "weight": "light"]],
            ]
        ])
        let dump = try TestImages.dump(width: 400, height: 400, density: 2, TestImages.textNode("day", text, (20, 40, 360, 300)))
        return TestImages.contrast(try dump.attaching(ImageDecoder.decode(TestImages.bytes(files["screen.png"]))))
    }

    func testFewThinStrokesAreStillText() throws {
        for (text, size) in [("21", 30), ("JUN", 26)] {
            let failing = try verdicts(text, color: "#A8A8A8", size: size)
            let finding = try XCTUnwrap(failing.findings.first, "\(text): \(failing.incompletes.map(\.reason))")
            XCTAssertEqual(finding.severity, .error)
            guard case .number(let ratio)? = finding.evidence.first(where: { $0.0 == .ratio })?.1 else { return XCTFail() }
            // #A8A8A8 on white is 2.41:1; the strokes' own colour, not a lighter rim.
            XCTAssertEqual(ratio, 2.41, accuracy: 0.3, text)
            // Dark thin digits pass: read, and nothing to report.
            let passing = try verdicts(text, color: "#333333", size: size)
            XCTAssertTrue(passing.findings.isEmpty && passing.incompletes.filter { $0.element != nil }.isEmpty, "\(passing)")
        }
    }
}

/// Truncation from the pixels, in any script (issue 54): an ellipsis drawn at the end of a
/// line — Latin, Chinese (mid-height dots) and Cyrillic, rendered as Android draws them
/// (`Tests/Fixtures/images/ellipsis`, made by its `make.py`) — is found without OCR; text
/// shown whole, text whose own words end in "…", a dotted leader and a version number are not.
/// On real screens: Greenbro's "De…" and "Cap…", a finance app's "Entertainm…".
final class DrawnEllipsisTests: XCTestCase {
    func truncated(_ dump: URL, _ image: URL, density: Double? = nil) throws -> [String] {
        let snapshot = try SnapshotParser(options: .init(androidDensity: density))
            .parse([UInt8](Data(contentsOf: dump))).attaching(ImageDecoder.decode([UInt8](Data(contentsOf: image))))
        return TestImages.audit(snapshot, rules: [TextTruncatedRule.self]).findings.compactMap { finding in
            guard finding.ruleID == "text.truncated" else { return nil }
            if case .string(let text)? = finding.evidence.first(where: { $0.0 == .expected })?.1 { return text }
            return nil
        }
    }

    func testAnEllipsisDrawnInAnyScriptIsFoundWithoutOCR() throws {
        let folder = TestSupport.fixtures.appendingPathComponent("images/ellipsis")
        let found = try truncated(folder.appendingPathComponent("ellipsis.xml"), folder.appendingPathComponent("ellipsis.png"), density: 3)
        XCTAssertEqual(
            found, ["Conversations with Alice and Bob about the trip", "设置中心的通知与声音和更多选项", "Уведомления и звуки устройства"])
    }

    func testRealScreensTruncationsAreFound() throws {
        let screens = TestSupport.fixtures.appendingPathComponent("screens/android")
        func pair(_ name: String) -> (URL, URL) {
            (screens.appendingPathComponent(name + ".xml"), screens.appendingPathComponent(name + ".png"))
        }
        let (portfolio, portfolioImage) = pair("Bradley-svg__GB-Mobile-Application--Android---iOS-__greenbro_portfolio")
        XCTAssertEqual(Set(try truncated(portfolio, portfolioImage)), ["Demo Site", "Cape Town"])
        let (finance, financeImage) = pair("sukumar9024__personal-finance-mobile-app__finance_home_dark")
        XCTAssertEqual(try truncated(finance, financeImage), ["Entertainment"])
        // A screen whose texts all fit: nothing.
        let (login, loginImage) = pair("Bradley-svg__GB-Mobile-Application--Android---iOS-__greenbro_login")
        XCTAssertEqual(try truncated(login, loginImage), [])
    }
}
