import AuditCore
import XCTest

/// Inherited flags and the colour behind each element, computed once after parsing.
final class DerivedFactsTests: XCTestCase {
    func testInheritance() throws {
        let snapshot = try TestSupport.parse(
            TestSupport.native(
                """
                <element id="hidden-group" role="container" hidden="true">
                  <element id="in-hidden" role="button" label="A"/>
                </element>
                <element id="invisible-group" role="container" visible="false">
                  <element id="in-invisible" role="button" label="B"/>
                </element>
                <element id="disabled-group" role="container" enabled="false">
                  <element id="in-disabled" role="button" label="C"/>
                </element>
                <element id="not-enabled" role="button" traits="not-enabled" label="D"/>
                <element id="linky" role="text" traits="link" text="more"/>
                <element id="plain" role="text" text="x" interactive="true"/>
                <element id="transparent" role="container" opacity="0"><element id="in-transparent" role="text" text="y"/></element>
                <element id="decorative" role="image" accessible="false"/>
                """))
        func element(_ id: String) throws -> Element { snapshot.elements[try XCTUnwrap(TestSupport.index(snapshot, id))] }
        XCTAssertTrue(try element("in-hidden").isHidden)
        XCTAssertFalse(try element("in-hidden").isAccessible)
        XCTAssertFalse(try element("in-invisible").isVisible)
        XCTAssertFalse(try element("in-disabled").isEnabled)
        XCTAssertFalse(try element("not-enabled").isEnabled)
        XCTAssertTrue(try element("linky").isInteractive)
        XCTAssertTrue(try element("plain").isInteractive)
        XCTAssertFalse(try element("in-transparent").isVisible)
        XCTAssertFalse(try element("decorative").isAccessible)
        XCTAssertFalse(snapshot.elements[0].isAccessible, "a window is not an accessibility element by default")
        XCTAssertTrue(try element("in-disabled").isAccessible)
    }

    func testBackgroundCompositing() throws {
        let snapshot = try TestSupport.parse(
            """
            <snapshot version="1">
              <element id="root" role="window" background="#FFFFFF">
                <element id="card" role="container" background="#00000080">
                  <element id="text" role="text" text="x" foreground="#FFFFFF"/>
                </element>
                <element id="faded" role="container" background="#000000" opacity="0.5">
                  <element id="faded-text" role="text" text="y"/>
                </element>
                <element id="own" role="text" text="z" background="#FF0000"/>
              </element>
              <element id="floating" role="window" background="#00000080">
                <element id="unknown" role="text" text="?"/>
              </element>
              <element id="bare" role="window"><element id="bare-text" role="text" text="?"/></element>
            </snapshot>
            """)
        func element(_ id: String) throws -> Element { snapshot.elements[try XCTUnwrap(TestSupport.index(snapshot, id))] }
        XCTAssertEqual(try element("card").backdrop, .white)
        XCTAssertEqual(try element("text").effectiveBackground, RGBA(red: 127, green: 127, blue: 127))
        XCTAssertEqual(try element("faded-text").effectiveBackground, RGBA(red: 127, green: 127, blue: 127))
        XCTAssertEqual(try element("faded-text").effectiveOpacity, 0.5)
        XCTAssertEqual(try element("own").effectiveBackground, RGBA(red: 255, green: 0, blue: 0))
        XCTAssertEqual(try element("own").backdrop, .white)
        XCTAssertNil(try element("unknown").effectiveBackground, "no opaque layer: unknown, not guessed")
        XCTAssertNil(try element("bare-text").effectiveBackground)
    }

    func testColourParsingAndCompositing() {
        XCTAssertEqual(RGBA("#abc"), RGBA(red: 0xAA, green: 0xBB, blue: 0xCC))
        XCTAssertEqual(RGBA("#AABBCC80")?.alpha, 0x80)
        XCTAssertNil(RGBA("AABBCC"))
        XCTAssertNil(RGBA("#AABBC"))
        XCTAssertNil(RGBA("#GGGGGG"))
        XCTAssertEqual(RGBA("#C7C7CC")?.hex, "#C7C7CC")
        XCTAssertEqual(RGBA(red: 0, green: 0, blue: 0, alpha: 128).composited(over: .white), RGBA(red: 127, green: 127, blue: 127))
    }
}
