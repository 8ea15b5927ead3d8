import AuditCore
import XCTest

/// Appium XCUITest and Android uiautomator sources map onto the same model.
final class DialectTests: XCTestCase {
    func testAppiumMapping() throws {
        let snapshot = try TestSupport.parse(
            """
            <AppiumAUT>
              <XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Shop" label="Shop" enabled="true" visible="true" x="0" y="0" width="390" height="844" bundleId="com.example.shop">
                <XCUIElementTypeButton type="XCUIElementTypeButton" name="close_button" label="Close" enabled="false" visible="true" accessible="true" x="-10" y="20" width="24" height="-5" traits="Image, Button"/>
                <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" name="Hello&#10;World" label="Hello&#10;World" value="Hello&#10;World" enabled="true" visible="false" x="0" y="50" width="100" height="20"/>
                <XCUIElementTypeSwitch type="XCUIElementTypeSwitch" name="Wi-Fi" label="Wi-Fi" value="1" enabled="true" visible="true" x="300" y="100" width="51" height="31" traits="Button, ToggleButton, Selected"/>
                <XCUIElementTypeOther type="XCUIElementTypeOther" enabled="true" visible="true" x="abc" y="0" width="1" height="1"/>
              </XCUIElementTypeApplication>
            </AppiumAUT>
            """)
        XCTAssertEqual(snapshot.dialect, .appiumXCUITest)
        XCTAssertEqual(snapshot.platform, .ios)
        XCTAssertEqual(snapshot.app, "com.example.shop")
        XCTAssertEqual(snapshot.elements.count, 5)
        XCTAssertEqual(snapshot.elements.map(\.role), [.window, .button, .text, .switch, .other])
        let button = snapshot.node(1)
        XCTAssertEqual(button.id, "close_button")
        XCTAssertEqual(button.label, "Close")
        XCTAssertEqual(button.element.traits, [.image, .button])
        XCTAssertEqual(button.element.frame, Rect(x: -10, y: 20, width: 24, height: 0))
        XCTAssertFalse(button.element.isEnabled)
        XCTAssertTrue(button.element.isInteractive)
        let text = snapshot.node(2)
        XCTAssertNil(text.id, "a name equal to the label is not an identifier")
        XCTAssertEqual(text.visibleText, "Hello\nWorld")
        XCTAssertFalse(text.element.isVisible)
        XCTAssertTrue(snapshot.elements[3].traits.contains(.selected))
        XCTAssertEqual(snapshot.invalidValues.map(\.attribute), ["x"])
        XCTAssertNil(snapshot.elements[4].frame)
        XCTAssertEqual(snapshot.path(of: 2), "/AppiumAUT/XCUIElementTypeApplication[1]/XCUIElementTypeStaticText[1]")
    }

    func testAndroidMappingAndDensity() throws {
        let xml = """
            <?xml version='1.0' encoding='UTF-8' standalone='yes' ?>
            <hierarchy rotation="0">
              <node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example" content-desc="" clickable="false" enabled="true" bounds="[0,0][1080,2340]">
                <node index="0" text="" resource-id="com.example:id/close" class="android.widget.ImageButton" content-desc="" clickable="true" enabled="true" bounds="[0,0][84,84]" NAF="true"/>
                <node index="1" text="Title" resource-id="" class="android.widget.TextView" content-desc="" clickable="false" heading="true" bounds="[100,0][500,60]"/>
                <node index="2" text="" resource-id="" class="android.widget.ImageView" content-desc="" clickable="false" bounds="[0,100][100,200]"/>
                <node index="3" text="Agree" resource-id="" class="android.widget.CheckBox" checkable="true" checked="true" clickable="true" bounds="[0,300][400,360]"/>
                <node index="4" text="" class="android.widget.Button" clickable="true" displayed="false" bounds="[10,10][5,5]"/>
                <node index="5" text="" class="android.widget.Button" clickable="true" bounds="oops"/>
              </node>
            </hierarchy>
            """
        let snapshot = try TestSupport.parse(xml)
        XCTAssertEqual(snapshot.dialect, .uiautomator)
        XCTAssertEqual(snapshot.platform, .android)
        XCTAssertEqual(snapshot.app, "com.example")
        XCTAssertEqual(snapshot.elements.count, 7)
        XCTAssertEqual(snapshot.scale, 2.625)
        XCTAssertEqual(try XCTUnwrap(snapshot.width), 1080 / 2.625, accuracy: 0.001)
        XCTAssertEqual(snapshot.elements.map(\.role), [.container, .button, .text, .image, .checkbox, .button, .button])
        let close = snapshot.node(1)
        XCTAssertEqual(close.id, "com.example:id/close")
        XCTAssertNil(close.label, "an empty content-desc is no label")
        XCTAssertEqual(close.element.notAccessibilityFriendly, true)
        XCTAssertTrue(close.element.isInteractive)
        XCTAssertTrue(close.element.isAccessible)
        XCTAssertEqual(try XCTUnwrap(close.element.frame?.width), 32, accuracy: 0.001)
        XCTAssertTrue(snapshot.elements[2].traits.contains(.header))
        XCTAssertFalse(snapshot.elements[3].isAccessible, "a plain image TalkBack would skip is decorative")
        XCTAssertEqual(snapshot.elements[4].checked, true)
        XCTAssertFalse(snapshot.elements[5].isVisible)
        XCTAssertEqual(snapshot.elements[5].frame?.width, 0)
        XCTAssertEqual(snapshot.invalidValues.map(\.attribute), ["bounds"])
        XCTAssertEqual(snapshot.path(of: 2), "/hierarchy/node[1]/node[2]")

        let given = try TestSupport.parse(xml, density: 3)
        XCTAssertEqual(given.scale, 3)
        XCTAssertEqual(given.elements[1].frame?.width, 28)
    }

    func testDensityEstimate() {
        XCTAssertEqual(AndroidDensity.estimate(widthPixels: 1080, heightPixels: 2340), 2.625)
        XCTAssertEqual(AndroidDensity.estimate(widthPixels: 1440, heightPixels: 3040), 3.5)
        XCTAssertEqual(AndroidDensity.estimate(widthPixels: 720, heightPixels: 1280), 2)
        XCTAssertEqual(AndroidDensity.estimate(widthPixels: 2340, heightPixels: 1080), 2.625, "landscape uses the shorter side")
        // Tablets (squarer than 1.62:1) aim at 720 dp: a 1600-px-wide tablet is 2 (800 dp), not
        // a phone's 4 (400 dp), which would halve every target and invent errors.
        XCTAssertEqual(AndroidDensity.estimate(widthPixels: 1600, heightPixels: 2560), 2)
        XCTAssertEqual(AndroidDensity.estimate(widthPixels: 800, heightPixels: 1280), 1)
        XCTAssertEqual(AndroidDensity.estimate(widthPixels: 2560, heightPixels: 1600), 2)
        XCTAssertEqual(AndroidDensity.estimate(widthPixels: 1080, heightPixels: 1920), 2.625, "16:9 is a phone")
        XCTAssertEqual(AndroidDensity.estimate(widthPixels: 1080, heightPixels: 1794), 2.625, "a phone without its navigation bar is still one")
        XCTAssertEqual(AndroidDensity.estimate(widthPixels: 455, heightPixels: 564), 1, "a dialog's own root is not a tablet")
    }

    /// A TV (landscape in its natural orientation) aims at 540 dp high, a watch (small,
    /// square, at the origin) at 227 dp; a phone turned on its side (rotation 1) stays a phone.
    /// A scroller whose class does not say which way it scrolls is read from its children:
    /// side by side across, stacked down, a child past one edge that axis, a grid either way.
    func testScrollAxesFromTheChildrensLayout() throws {
        func axes(_ children: String, scroller: String = "androidx.recyclerview.widget.RecyclerView") throws -> ScrollAxes {
            let xml = """
                <hierarchy rotation="0"><node class="\(scroller)" package="com.example" scrollable="true" bounds="[0,200][1080,800]">\(children)</node></hierarchy>
                """
            let snapshot = try TestSupport.parse(xml)
            return snapshot.elements[0].scrollAxes
        }
        func node(_ bounds: String) -> String { #"<node class="android.view.ViewGroup" package="com.example" bounds="\#(bounds)"/>"# }
        XCTAssertEqual(try axes(node("[0,200][400,800]") + node("[400,200][800,800]") + node("[800,200][1080,800]")), .horizontal)
        XCTAssertEqual(try axes(node("[0,200][1080,400]") + node("[0,400][1080,600]")), .vertical)
        XCTAssertEqual(try axes(node("[0,100][1080,900]")), .vertical)
        XCTAssertEqual(try axes(node("[-300,200][1080,800]")), .horizontal)
        XCTAssertEqual(try axes(node("[0,200][540,500]") + node("[540,200][1080,500]") + node("[0,500][540,800]")), .both)
        XCTAssertEqual(try axes(node("[0,200][1080,800]")), .both)
        // A class that says its axis keeps it.
        XCTAssertEqual(try axes(node("[0,200][400,800]") + node("[400,200][800,800]"), scroller: "android.widget.ScrollView"), .vertical)
    }

    func testScreenShapesTVAndWatch() throws {
        XCTAssertEqual(AndroidDensity.estimated(widthPixels: 1920, heightPixels: 1080, naturalLandscape: true).shape, .tv)
        XCTAssertEqual(AndroidDensity.estimated(widthPixels: 1920, heightPixels: 1080, naturalLandscape: true).density, 2)
        XCTAssertEqual(AndroidDensity.estimated(widthPixels: 1280, heightPixels: 720, naturalLandscape: true).density, 1.33)
        XCTAssertEqual(AndroidDensity.estimated(widthPixels: 2340, heightPixels: 1080, naturalLandscape: false).density, 2.625)
        XCTAssertEqual(AndroidDensity.estimated(widthPixels: 466, heightPixels: 466, atOrigin: true).shape, .watch)
        XCTAssertEqual(AndroidDensity.estimated(widthPixels: 466, heightPixels: 466, atOrigin: true).density, 2)
        XCTAssertEqual(AndroidDensity.estimated(widthPixels: 455, heightPixels: 470, atOrigin: false).shape, .phone, "a popup's own root")
        // The status bar's window alone: a phone as wide as the strip, not a TV at 0.75.
        let strip = AndroidDensity.estimated(widthPixels: 1080, heightPixels: 72, naturalLandscape: true, atOrigin: true)
        XCTAssertEqual(strip.shape, .phone)
        XCTAssertEqual(strip.density, 2.625)
        let tv = try TestSupport.parse(
            #"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1920,1080]"><node class="android.widget.Button" text="Play" clickable="true" package="com.example" bounds="[100,100][300,196]"/></node></hierarchy>"#
        )
        XCTAssertEqual(tv.scale, 2)
        XCTAssertTrue(tv.notes.contains { $0.contains("a TV") }, "\(tv.notes)")
        let watch = try TestSupport.parse(
            #"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][466,466]"><node class="android.widget.Button" text="Start" clickable="true" package="com.example" bounds="[133,300][333,396]"/></node></hierarchy>"#
        )
        XCTAssertEqual(watch.scale, 2)
        XCTAssertEqual(watch.elements[1].frame?.height, 48)
    }

    /// The layout's standard components outvote the short side: a 320 × 640 screen with a
    /// 24-px status bar, a 56-px floating action button and a 48-px navigation bar is density
    /// 1, not the 0.75 its width says; one cue alone does not decide.
    func testDensityFromTheLayoutsStandardComponents() throws {
        let xml =
            #"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][320,640]"><node class="android.view.View" resource-id="android:id/statusBarBackground" package="com.example" bounds="[0,0][320,24]"/><node class="com.google.android.material.floatingactionbutton.FloatingActionButton" content-desc="New" clickable="true" package="com.example" bounds="[248,520][304,576]"/><node class="android.view.View" resource-id="android:id/navigationBarBackground" package="com.example" bounds="[0,592][320,640]"/></node></hierarchy>"#
        let snapshot = try TestSupport.parse(xml)
        XCTAssertEqual(snapshot.scale, 1)
        XCTAssertTrue(snapshot.notes.contains { $0.contains("from the layout's standard components") && $0.contains("24-px status bar") }, "\(snapshot.notes)")
        XCTAssertEqual(
            snapshot.scaleBasis, "the layout's standard components: a 24-px status bar, a 56-px floating action button, a 48-px navigation bar")
        let one = xml.replacingOccurrences(
            of: #"<node class="android.view.View" resource-id="android:id/navigationBarBackground" package="com.example" bounds="[0,592][320,640]"/>"#, with: ""
        )
        .replacingOccurrences(of: "FloatingActionButton", with: "ImageButton")
        let alone = try TestSupport.parse(one)
        XCTAssertEqual(alone.scale, 0.75)
        XCTAssertEqual(alone.scaleBasis, "the screen's 320-px short side (a phone)")
        // A plain uiautomator dump has the system's own status bar, not the app's background:
        // 72 px with a 168-px toolbar is a 3.0 phone, not the 2.625 a 1080-px width says.
        let plain =
            #"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.android.systemui" bounds="[0,0][1080,72]"><node class="android.widget.FrameLayout" resource-id="com.android.systemui:id/status_bar" package="com.android.systemui" bounds="[0,0][1080,72]"/></node><node class="android.widget.FrameLayout" package="com.example" bounds="[0,72][1080,2400]"><node class="androidx.appcompat.widget.Toolbar" resource-id="com.example:id/toolbar" package="com.example" bounds="[0,72][1080,240]"/></node></hierarchy>"#
        let phone = try TestSupport.parse(plain)
        XCTAssertEqual(phone.scale, 3)
        XCTAssertTrue(phone.notes.contains { $0.contains("a 72-px status bar") }, "\(phone.notes)")
    }

    func testTheReportSaysWhatDecidedTheDensity() throws {
        let xml =
            #"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1600,2560]"><node class="android.widget.Button" text="Go" clickable="true" package="com.example" bounds="[0,0][100,100]"/></node></hierarchy>"#
        let snapshot = try TestSupport.parse(xml)
        XCTAssertEqual(snapshot.scale, 2)
        let report = Auditor.audit(snapshot, ruleSet: RuleSet(name: "none", entries: []))
        let notes = report.json["snapshot"]?["notes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        XCTAssertEqual(
            notes,
            [
                "Android density 2 estimated from the screen's 1600 px short side (a tablet (aspect 1.6:1), aiming at 720 dp): 800 dp; give ?density= (auditctl audit --android-density) if it is another"
            ])
        let given = Auditor.audit(try TestSupport.parse(xml, density: 2.5), ruleSet: RuleSet(name: "none", entries: []))
        XCTAssertEqual(given.json["snapshot"]?["notes"]?.arrayValue?.compactMap(\.stringValue), ["Android density 2.5 given by the caller"])
    }

    func testUiAutomator2ClassNameTags() throws {
        let snapshot = try TestSupport.parse(
            """
            <hierarchy index="0" class="hierarchy" rotation="0" width="1440" height="2392">
              <android.widget.FrameLayout class="android.widget.FrameLayout" bounds="[0,0][1440,2392]">
                <android.widget.TextView class="android.widget.TextView" text="A" bounds="[0,0][100,100]"/>
                <android.widget.Button class="android.widget.Button" text="B" clickable="true" bounds="[0,100][100,200]"/>
                <android.widget.TextView class="android.widget.TextView" text="C" bounds="[0,200][100,300]"/>
              </android.widget.FrameLayout>
            </hierarchy>
            """)
        XCTAssertEqual(snapshot.elements.count, 4)
        XCTAssertEqual(snapshot.scale, 3.5)
        XCTAssertEqual(snapshot.path(of: 3), "/hierarchy/android.widget.FrameLayout[1]/android.widget.TextView[2]")
    }
}

/// auditctl finds captures and their screenshots by asking the dialects.
final class DialectFilesTests: XCTestCase {
    func testFileExtensionsAndContentTypesComeFromTheDialects() {
        XCTAssertEqual(SnapshotDialects.fileExtensions, ["xml", "semantics.txt"])
        XCTAssertEqual(SnapshotDialects.baseName(of: "screens/Login.XML"), "screens/Login")
        XCTAssertEqual(SnapshotDialects.baseName(of: "screens/login.png"), "screens/login.png")
        XCTAssertEqual(SnapshotDialects.baseName(of: "screens/cart.semantics.txt"), "screens/cart")
        XCTAssertEqual(SnapshotDialects.contentType(forFile: "a.xml"), "application/xml")
        XCTAssertEqual(SnapshotDialects.contentType(forFile: "cart.semantics.txt"), "text/plain")
    }
}
