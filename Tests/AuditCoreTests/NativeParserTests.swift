import AuditCore
import XCTest

/// Every attribute type of docs/snapshot-format.md, read from real XML.
final class NativeParserTests: XCTestCase {
    func testSnapshotHeaderAndSettings() throws {
        let snapshot = try TestSupport.parse(
            """
            <snapshot version="1" platform="android" app="com.example.shop" build="1842" screen="Checkout" width="390" height="844" scale="3">
              <settings reduce-motion="true" differentiate-without-color="no" content-size="ax2" increase-contrast="1"
                        reduce-transparency="0" color-scheme="dark"/>
              <element id="root" role="window" frame="0,0,390,844"/>
            </snapshot>
            """)
        XCTAssertEqual(snapshot.dialect, .native)
        XCTAssertEqual(snapshot.platform, .android)
        XCTAssertEqual(snapshot.app, "com.example.shop")
        XCTAssertEqual(snapshot.build, "1842")
        XCTAssertEqual(snapshot.screen, "Checkout")
        XCTAssertEqual(snapshot.width, 390)
        XCTAssertEqual(snapshot.height, 844)
        XCTAssertEqual(snapshot.scale, 3)
        XCTAssertEqual(snapshot.settings.reduceMotion, true)
        XCTAssertEqual(snapshot.settings.differentiateWithoutColor, false)
        XCTAssertEqual(snapshot.settings.increaseContrast, true)
        XCTAssertEqual(snapshot.settings.reduceTransparency, false)
        XCTAssertEqual(snapshot.settings.contentSize, .ax2)
        XCTAssertTrue(snapshot.settings.effectiveContentSize.isAccessibilitySize)
        XCTAssertEqual(snapshot.settings.colorScheme, .dark)
        XCTAssertTrue(snapshot.invalidValues.isEmpty)
    }

    func testEveryElementAttributeIsDecoded() throws {
        let snapshot = try TestSupport.parse(
            TestSupport.native(
                """
                <element id="title" role="text" label="Check &amp; pay" value="v" hint="h" text="Checkout" placeholder="p"
                         image="icon_close" traits="header selected updates-frequently bogus" accessible="yes" hidden="false"
                         visible="1" enabled="true" interactive="false" frame="16,60.5,358,41" hit-frame="10,50,370,60"
                         foreground="#C7C7CC" background="#00000080" border="#abc" opacity="0.5" font-size="34"
                         font-weight="semibold" text-style="large-title" scales-with-content-size="false" truncated="true"
                         underline="true" a11y-ignore="contrast.text label.*" data-foo="kept and ignored"/>
                """))
        let node = snapshot.node(try XCTUnwrap(TestSupport.index(snapshot, "title")))
        let element = node.element
        XCTAssertEqual(element.role, .text)
        XCTAssertEqual(node.label, "Check & pay")
        XCTAssertEqual(node.value, "v")
        XCTAssertEqual(node.hint, "h")
        XCTAssertEqual(node.text, "Checkout")
        XCTAssertEqual(node.placeholder, "p")
        XCTAssertEqual(node.image, "icon_close")
        XCTAssertEqual(element.traits, [.header, .selected, .updatesFrequently])
        XCTAssertEqual(element.accessible, true)
        XCTAssertEqual(element.hidden, false)
        XCTAssertEqual(element.visible, true)
        XCTAssertEqual(element.enabled, true)
        XCTAssertEqual(element.interactive, false)
        XCTAssertEqual(element.frame, Rect(x: 16, y: 60.5, width: 358, height: 41))
        XCTAssertEqual(element.hitFrame, Rect(x: 10, y: 50, width: 370, height: 60))
        XCTAssertEqual(element.touchFrame, element.hitFrame)
        XCTAssertEqual(element.foreground, RGBA(red: 0xC7, green: 0xC7, blue: 0xCC))
        XCTAssertEqual(element.background, RGBA(red: 0, green: 0, blue: 0, alpha: 0x80))
        XCTAssertEqual(element.border, RGBA(red: 0xAA, green: 0xBB, blue: 0xCC))
        XCTAssertEqual(element.opacity, 0.5)
        XCTAssertEqual(element.fontSize, 34)
        XCTAssertEqual(element.fontWeight, 600)
        XCTAssertEqual(element.textStyle, .largeTitle)
        XCTAssertEqual(element.scalesWithContentSize, false)
        XCTAssertEqual(element.truncated, true)
        XCTAssertEqual(element.underline, true)
        XCTAssertEqual(snapshot.suppressions(of: node.index), ["contrast.text", "label.*"])
        XCTAssertEqual(node.path, "/snapshot/element[1]/element[1]")
        XCTAssertTrue(snapshot.invalidValues.isEmpty, "\(snapshot.invalidValues)")
    }

    func testExtensionAttributesForVoiceOverRules() throws {
        let snapshot = try TestSupport.parse(
            TestSupport.native(
                """
                <element id="x" role="container" modal="true" supports-escape="false" draws-content="yes" large-content-viewer="1"
                         main-action="true" magic-tap="no"/>
                <element id="y" role="container" modal="sometimes"/>
                """))
        let x = snapshot.elements[try XCTUnwrap(TestSupport.index(snapshot, "x"))]
        XCTAssertEqual(x.modal, true)
        XCTAssertEqual(x.supportsEscape, false)
        XCTAssertEqual(x.drawsContent, true)
        XCTAssertEqual(x.largeContentViewer, true)
        XCTAssertEqual(x.mainAction, true)
        XCTAssertEqual(x.magicTap, false)
        XCTAssertEqual(snapshot.invalidValues.map(\.attribute), ["modal"])
    }

    func testUnknownRoleIsKeptAndTreatedAsOther() throws {
        let snapshot = try TestSupport.parse(TestSupport.native(#"<element id="x" role="carousel" frame="0,0,1,1"/>"#))
        let node = snapshot.node(try XCTUnwrap(TestSupport.index(snapshot, "x")))
        XCTAssertEqual(node.role, .other)
        XCTAssertEqual(node.typeName, "carousel")
        XCTAssertTrue(snapshot.invalidValues.isEmpty)
    }

    func testInvalidValuesAreRecordedAndTheRestIsRead() throws {
        let snapshot = try TestSupport.parse(
            TestSupport.native(
                """
                <element id="bad" role="button" frame="1,2,abc,4" hit-frame="1,2,-3,4" foreground="#GGG" background="red"
                         opacity="1.5" font-size="-2" font-weight="fat" text-style="huge" enabled="maybe" label="Still read"/>
                <element id="numbers" role="text" frame="NaN,0,1,1" font-size="Infinity" opacity="1e309"/>
                <element id="zero" role="text" frame="-0,0,0,0" opacity="-0"/>
                """, settings: #"<settings content-size="gigantic" reduce-motion="perhaps" color-scheme="sepia"/>"#))
        let bad = try XCTUnwrap(TestSupport.index(snapshot, "bad"))
        let attributes = snapshot.invalidValues.filter { $0.element == bad }.map(\.attribute)
        XCTAssertEqual(
            attributes,
            [
                "frame", "hit-frame", "foreground", "background", "opacity", "font-size",
                "font-weight", "text-style", "enabled",
            ])
        XCTAssertEqual(snapshot.node(bad).label, "Still read")
        XCTAssertNil(snapshot.elements[bad].frame)
        XCTAssertEqual(snapshot.invalidValues.first { $0.element == bad }?.line, 4)
        XCTAssertEqual(snapshot.invalidValues.first?.line, 2)
        let numbers = try XCTUnwrap(TestSupport.index(snapshot, "numbers"))
        XCTAssertEqual(snapshot.invalidValues.filter { $0.element == numbers }.map(\.attribute), ["frame", "font-size", "opacity"])
        let zero = try XCTUnwrap(TestSupport.index(snapshot, "zero"))
        XCTAssertTrue(snapshot.invalidValues.filter { $0.element == zero }.isEmpty)
        XCTAssertEqual(snapshot.elements[zero].opacity, 0)
        let settings = snapshot.invalidValues.filter { $0.owner == "settings" }.map(\.attribute)
        XCTAssertEqual(settings, ["content-size", "reduce-motion", "color-scheme"])
    }

    func testAnimationsBelongToTheirElement() throws {
        let snapshot = try TestSupport.parse(
            TestSupport.native(
                """
                <element id="hero" role="image" label="Sale" frame="0,110,390,200">
                  <element id="inner" role="text" text="x" frame="0,0,1,1">
                    <animation kind="spin" duration="1" repeat="forever"/>
                  </element>
                  <animation kind="parallax" duration="0.8" repeat="forever" honors-reduce-motion="false"/>
                  <animation kind="wobble" duration="2" repeat="3" autoplay="true" pausable="false" distance="40"/>
                </element>
                """))
        let hero = try XCTUnwrap(TestSupport.index(snapshot, "hero"))
        let animations = Array(snapshot.animations(of: hero))
        XCTAssertEqual(animations.map(\.kind), [.parallax, .other])
        XCTAssertEqual(animations[0].repeatCount, .forever)
        XCTAssertEqual(animations[0].honorsReduceMotion, false)
        XCTAssertEqual(animations[0].totalDuration, .infinity)
        XCTAssertEqual(animations[1].kindName, "wobble")
        XCTAssertEqual(animations[1].totalDuration, 6)
        XCTAssertEqual(animations[1].autoplay, true)
        XCTAssertEqual(animations[1].pausable, false)
        XCTAssertEqual(animations[1].distance, 40)
        let inner = try XCTUnwrap(TestSupport.index(snapshot, "inner"))
        XCTAssertEqual(snapshot.animations(of: inner).map(\.kind), [.spin])
        // <animation> is not a UI element.
        XCTAssertEqual(snapshot.elements.count, 3)
    }

    /// Every kind by its name (another name kept as written), and values that are not
    /// what an attribute takes recorded under the attribute's name.
    func testAnimationAttributesAreReadByName() throws {
        let kinds = Animation.Kind.allCases.map(\.rawValue) + ["Fade", "fade ", "wobble", ""]
        let animations = kinds.map { #"<animation kind="\#($0)"/>"# }.joined()
        let snapshot = try TestSupport.parse(
            TestSupport.native(
                #"<element id="a" role="image" label="x" frame="0,0,10,10">\#(animations)<animation duration="-1" repeat="often" distance="far" autoplay="maybe" unknown="1"/></element>"#
            ))
        let read = Array(snapshot.animations(of: try XCTUnwrap(TestSupport.index(snapshot, "a"))))
        XCTAssertEqual(read.map(\.kindName), kinds + ["other"])
        XCTAssertEqual(read.map(\.kind), Animation.Kind.allCases + [.other, .other, .other, .other, .other])
        XCTAssertEqual(snapshot.invalidValues.map(\.attribute), ["duration", "repeat", "distance", "autoplay"])
        XCTAssertNil(read.last?.duration)
        XCTAssertNil(read.last?.autoplay)
    }

    func testLinesColumnsAndPaths() throws {
        let snapshot = try TestSupport.parse(
            """
            <snapshot version="1">
              <element id="a" role="window">
                <element id="b" role="text"/>
                <wrapper><element id="c" role="text"/></wrapper>
                  <element
                     id="d" role="button"/>
              </element>
            </snapshot>
            """)
        let lines = snapshot.elements.map { ($0.line, $0.column) }
        XCTAssertEqual(lines.map(\.0), [2, 3, 4, 5])
        XCTAssertEqual(lines.map(\.1), [3, 5, 14, 7])
        let d = try XCTUnwrap(TestSupport.index(snapshot, "d"))
        XCTAssertEqual(snapshot.path(of: d), "/snapshot/element[1]/element[3]")
        XCTAssertEqual(snapshot.children(of: 0), [1, 2, 3])
        XCTAssertEqual(snapshot.ancestors(of: d), [0])
    }

    func testUnsupportedVersionStopsBeforeLaterAttributes() {
        // Regression (fuzzer): attributes after a refused version were read from freed memory.
        let error = TestSupport.parseError(#"<snapshot version="2" platform="ios" app="com.example" build="7" screen="S" width="390"><element/></snapshot>"#)
        XCTAssertEqual(error?.code, .unsupportedVersion)
        XCTAssertEqual(error?.message, "snapshot version \"2\" is not supported")
    }

    func testStructuralErrors() {
        let missing = TestSupport.parseError(#"<snapshot platform="ios"><element/></snapshot>"#)
        XCTAssertEqual(missing?.code, .missingVersion)
        XCTAssertEqual(missing?.line, 1)
        XCTAssertEqual(missing?.column, 1)
        XCTAssertEqual(TestSupport.parseError(#"<snapshot version="2"/>"#)?.code, .unsupportedVersion)
        let root = TestSupport.parseError("<?xml version=\"1.0\"?>\n<html><body/></html>")
        XCTAssertEqual(root?.code, .unsupportedRoot)
        XCTAssertEqual(root?.line, 2)
        XCTAssertTrue(root?.hint.contains("<snapshot") ?? false)
        let mismatch = TestSupport.parseError("<snapshot version=\"1\">\n  <element>\n</snapshot>")
        XCTAssertEqual(mismatch?.code, .malformed)
        XCTAssertEqual(mismatch?.line, 3)
        XCTAssertGreaterThan(mismatch?.column ?? 0, 0)
        XCTAssertEqual(TestSupport.parseError("")?.code, .empty)
        XCTAssertEqual(TestSupport.parseError("   \n ")?.code, .empty)
    }
}
