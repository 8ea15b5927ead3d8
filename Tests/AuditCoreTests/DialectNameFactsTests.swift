@testable import AuditCore
@testable import AuditModel
@testable import AuditParsing
import XCTest

/// Dialects read an element's type, class and package once per distinct name
/// (``ByteKeyedMemo``), and compare and prefix names and labels as bytes
/// (``TextTable/sameText(_:_:)``, ``TextTable/hasPrefix(_:_:)``): each must answer exactly
/// as the strings did.
final class DialectNameFactsTests: XCTestCase {
    /// Asks a memo for every name four times, in a new order each round after the first:
    /// each answer must be what reading the name afresh gives.
    func assertMemoAnswersAsRead<Facts: Equatable>(
        _ names: [String], _ generator: inout SeededGenerator, read: (String) -> Facts, line: UInt = #line
    ) {
        var memo = ByteKeyedMemo<Facts>()
        for round in 0..<4 {
            for name in round == 0 ? names : names.shuffled(using: &generator) {
                let facts = Array(name.utf8).withUnsafeBufferPointer { bytes in
                    memo.value(for: bytes) { read(String(decoding: $0, as: UTF8.self)) }
                }
                XCTAssertEqual(facts, read(name), "\(name), seed \(generator.seed)", line: line)
            }
        }
    }

    func testTypeFactsFromTheMemoAreTheNamesOwn() {
        var generator = SeededGenerator()
        var names = AppiumXCUITestDialect.appium.keys.map { "XCUIElementType" + $0 }
        names += AppiumXCUITestDialect.scrollingTypes.keys
        names += [
            "XCUIElementTypeKeyboard", "XCUIElementTypeStatusBar", "XCUIElementTypeAlert", "XCUIElementTypeSheet",
            "XCUIElementTypeApplication", "XCUIElementTypeNavigationBar", "Button", "XCUIElementType", "", "XCUIElementTypeButton\u{301}",
        ]
        // More distinct names than the memo keeps: the ones beyond are read each time.
        names += (0..<(ByteKeyedMemo<AppiumTypeFacts>.capacity + 20)).map { "XCUIElementTypeCustom\($0)" }
        assertMemoAnswersAsRead(names, &generator) { AppiumTypeFacts(typeName: $0) }
        // Bytes that are not UTF-8 are read as `String(decoding:)` reads them.
        let invalid: [UInt8] = Array("XCUIElementType".utf8) + [0xFF, 0x42]
        var memo = ByteKeyedMemo<AppiumTypeFacts>()
        let facts = invalid.withUnsafeBufferPointer { memo.value(for: $0) { AppiumTypeFacts(typeName: String(decoding: $0, as: UTF8.self)) } }
        XCTAssertEqual(facts, AppiumTypeFacts(typeName: String(decoding: invalid, as: UTF8.self)))
        XCTAssertEqual(AppiumTypeFacts(typeName: "XCUIElementTypeKeyboard").systemUI, true)
        XCTAssertEqual(AppiumTypeFacts(typeName: "XCUIElementTypeSheet").modal, true)
        XCTAssertEqual(AppiumTypeFacts(typeName: "XCUIElementTypeTable").scrollAxes, .vertical)
        XCTAssertEqual(AppiumTypeFacts(typeName: "XCUIElementTypeButton").role, .button)
    }

    func testSameTextAndPrefixAnswerAsStringsDo() {
        var generator = SeededGenerator()
        // Pieces that compare equal as strings with other bytes (é precomposed and
        // decomposed, the Kelvin sign and K), combining marks after a prefix, bytes that
        // are not UTF-8 (each decoded to U+FFFD), and the prefixes the dialect asks about.
        let pieces: [[UInt8]] = [
            Array("Vertical scroll bar".utf8), Array("Horizontal scroll bar".utf8), Array(", 1 page".utf8), Array("V".utf8),
            Array("r".utf8), Array(" ".utf8), Array("é".utf8), Array("e\u{301}".utf8), Array("\u{301}".utf8),
            Array("\u{212A}".utf8), Array("K".utf8), [0xFF], [0xC3], Array("Close".utf8), Array("\r\n".utf8),
        ]
        var texts = TextTable()
        var refs: [TextRef] = [.absent]
        var strings: [String?] = [nil]
        var raw: [[UInt8]?] = [nil]
        for _ in 0..<1_500 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(generator.next() % 4) { bytes += pieces[Int(generator.next() % UInt64(pieces.count))] }
            refs.append(bytes.withUnsafeBufferPointer { texts.append($0) })
            strings.append(String(decoding: bytes, as: UTF8.self))
            raw.append(bytes)
        }
        for (index, ref) in refs.enumerated() {
            for prefix: StaticString in ["Vertical scroll bar", "Horizontal scroll bar"] {
                XCTAssertEqual(
                    texts.hasPrefix(ref, prefix), strings[index]?.hasPrefix(prefix.description) ?? false,
                    "\(String(reflecting: strings[index])) has prefix \(prefix), seed \(generator.seed)")
            }
            for _ in 0..<40 {
                let other = Int(generator.next() % UInt64(refs.count))
                XCTAssertEqual(
                    texts.sameText(ref, refs[other]), strings[index] == strings[other],
                    "\(String(reflecting: strings[index])) vs \(String(reflecting: strings[other])), seed \(generator.seed)")
                XCTAssertEqual(
                    texts.sameBytes(ref, refs[other]), raw[index] == raw[other],
                    "bytes of \(String(reflecting: strings[index])) vs \(String(reflecting: strings[other])), seed \(generator.seed)")
            }
        }
    }

    /// The facts land on the elements: system bars and keyboards, modal alerts, scroll
    /// views, scroll indicators, and a name that is the label in other bytes.
    func testTypesAndLabelsMapOntoTheElements() throws {
        let snapshot = try TestSupport.parse(
            """
            <AppiumAUT>
              <XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Shop" label="Shop" x="0" y="0" width="390" height="844">
                <XCUIElementTypeStatusBar type="XCUIElementTypeStatusBar" x="0" y="0" width="390" height="44"/>
                <XCUIElementTypeTable type="XCUIElementTypeTable" x="0" y="44" width="390" height="700">
                  <XCUIElementTypeOther type="XCUIElementTypeOther" name="Vertical scroll bar, 2 pages" label="Vertical scroll bar, 2 pages" x="380" y="44" width="3" height="700"/>
                  <XCUIElementTypeOther type="XCUIElementTypeOther" label="Vertical scroll bar\u{301}" x="380" y="44" width="3" height="700"/>
                </XCUIElementTypeTable>
                <XCUIElementTypeAlert type="XCUIElementTypeAlert" name="Café" label="Cafe\u{301}" x="20" y="300" width="350" height="200"/>
                <XCUIElementTypeButton type="XCUIElementTypeButton" name="Cafe" label="Café" x="20" y="520" width="350" height="44"/>
                <XCUIElementTypeKeyboard x="0" y="600" width="390" height="244"/>
              </XCUIElementTypeApplication>
            </AppiumAUT>
            """)
        XCTAssertEqual(snapshot.app, "Shop")
        XCTAssertEqual(snapshot.width, 390)
        XCTAssertEqual(snapshot.elements.map(\.role), [.window, .container, .container, .other, .other, .container, .button, .container])
        // A combining mark after the prefix makes another last character: as `hasPrefix` says.
        let marked = "Vertical scroll bar\u{301}".hasPrefix("Vertical scroll bar")
        XCTAssertEqual(snapshot.elements.map(\.systemUI), [false, true, false, true, marked, false, false, true])
        XCTAssertEqual(snapshot.elements.map { $0.modal == true }, [false, false, false, false, false, true, false, false])
        XCTAssertEqual(snapshot.elements[2].scrollAxes, .vertical)
        XCTAssertNil(snapshot.node(5).id, "a name canonically equal to the label is not an identifier")
        XCTAssertEqual(snapshot.node(6).id, "Cafe")
        XCTAssertEqual(snapshot.node(7).typeName, "XCUIElementTypeKeyboard", "without a type, the tag names the type")
    }

    func testAndroidClassFactsFromTheMemoAreTheNamesOwn() {
        var generator = SeededGenerator()
        var names = UiautomatorDialect.android.flatMap { ["android.widget." + $0.suffix, $0.suffix, "com.example.My" + $0.suffix, $0.suffix + "Holder"] }
        names += [
            "android.view.View", "View", "android.support.v4.view.ViewPager", "androidx.viewpager2.widget.ViewPager2",
            "android.widget.HorizontalScrollView", "android.widget.ScrollView", "android.widget.ListView",
            "androidx.recyclerview.widget.RecyclerView", "androidx.compose.ui.platform.ComposeView",
            "androidx.compose.ui.platform.AndroidComposeView", "ComposeView", "", "android.widget.Button\u{301}",
        ]
        assertMemoAnswersAsRead(names, &generator) { UiautomatorClassFacts(className: $0) }
        XCTAssertEqual(UiautomatorClassFacts(className: "android.widget.CheckBox").role, .checkbox)
        XCTAssertEqual(UiautomatorClassFacts(className: "androidx.viewpager2.widget.ViewPager2").scrollAxes, .horizontal)
        XCTAssertTrue(UiautomatorClassFacts(className: "androidx.compose.ui.platform.ComposeView").ordersByPosition)
    }

    /// Packages are told apart by their bytes: the system's and keyboards' nodes are the
    /// system's, another app's window is not the app's, and the app is the package of the
    /// most nodes — with more packages than the memo keeps as well.
    func testAndroidPackagesAreTalliedByTheirBytes() throws {
        func dump(extraPackages: Int) -> String {
            var nodes = [
                #"<node class="android.widget.FrameLayout" package="com.android.systemui" bounds="[0,0][1080,60]"/>"#,
                #"<node class="android.widget.Button" text="Go" clickable="true" package="com.example.shop" bounds="[0,100][540,200]"/>"#,
                #"<node class="android.widget.Button" text="Buy" clickable="true" package="com.example.shop" bounds="[540,100][1080,200]"/>"#,
                #"<node class="android.widget.Button" text="Chat" clickable="true" package="com.chat.heads" bounds="[0,300][200,400]"/>"#,
                #"<node class="android.widget.Button" text="Q" clickable="true" package="com.google.android.inputmethod.latin" bounds="[0,2000][100,2100]"/>"#,
                #"<node class="android.widget.TextView" text="" package="" bounds="[0,500][100,600]"/>"#,
            ]
            nodes += (0..<extraPackages).map { #"<node class="android.widget.TextView" text="T\#($0)" package="com.other\#($0)" bounds="[0,700][100,800]"/>"# }
            nodes.append(#"<node class="android.widget.Button" text="Pay" clickable="true" package="com.example.shop" bounds="[0,800][1080,900]"/>"#)
            return #"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example.shop" bounds="[0,0][1080,2400]">"#
                + nodes.joined() + "</node></hierarchy>"
        }
        for extra in [0, ByteKeyedMemo<Int32>.capacity + 5] {
            let snapshot = try TestSupport.parse(dump(extraPackages: extra))
            XCTAssertEqual(snapshot.app, "com.example.shop", "\(extra) other packages")
            let systemUI = snapshot.elements.map(\.systemUI)
            XCTAssertEqual(Array(systemUI.prefix(7)), [false, true, false, false, true, true, false], "\(extra) other packages")
            XCTAssertEqual(systemUI.dropFirst(7).dropLast(), Array(repeating: true, count: extra)[...], "\(extra) other packages")
            XCTAssertEqual(systemUI.last, false)
        }
    }
}
