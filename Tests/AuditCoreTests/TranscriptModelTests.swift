import AuditCore
import Dispatch
import Foundation
import XCTest

/// The screen reader's model on small screens whose transcript is known from the readers'
/// rules (docs/transcripts.md).
final class TranscriptModelTests: XCTestCase {
    func android(_ nodes: String) throws -> Snapshot {
        try SnapshotParser().parse(
            Array(##"<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]">\##(nodes)</node></hierarchy>"##.utf8))
    }

    func speech(_ snapshot: Snapshot, reader: ScreenReader? = nil) -> [String] { Transcript(snapshot, reader: reader).stops.map(\.speech) }

    func testTalkBackSaysADescriptionInsteadOfWhatIsInside() throws {
        let snapshot = try android(
            ##"""
            <node class="android.widget.LinearLayout" content-desc="Open inbox" clickable="true" package="com.example" bounds="[0,100][1080,300]">
              <node class="android.widget.TextView" text="Inbox" package="com.example" bounds="[40,120][600,180]"/>
              <node class="android.widget.TextView" text="3 new" package="com.example" bounds="[40,190][600,250]"/>
            </node>
            <node class="android.widget.LinearLayout" clickable="true" package="com.example" bounds="[0,300][1080,500]">
              <node class="android.widget.TextView" text="Wi-Fi" package="com.example" bounds="[40,320][600,380]"/>
              <node class="android.widget.Switch" checkable="true" checked="true" clickable="true" package="com.example" bounds="[900,320][1040,380]"/>
            </node>
            <node class="android.widget.TextView" text="Version 2.1" package="com.example" bounds="[40,600][600,660]"/>
            """##)
        XCTAssertEqual(speech(snapshot), ["Open inbox", "Wi-Fi", "on, switch", "Version 2.1"])
        // TalkBack's description order is a setting: state, name, role by default; the
        // order it had before the setting on request.
        XCTAssertEqual(
            Transcript(snapshot, order: .nameRoleState).stops.map(\.speech), ["Open inbox", "Wi-Fi", "switch, on", "Version 2.1"])
        XCTAssertEqual(Transcript(snapshot, order: .roleNameState).stops.map(\.speech)[2], "switch, on")
        XCTAssertEqual(Transcript(snapshot).stops.map { $0.usageHint?.text }, ["Double-tap to activate", "Double-tap to activate", "Double-tap to toggle", nil])
        XCTAssertNotEqual(Transcript(snapshot).digest, Transcript(snapshot, order: .nameRoleState).digest)
    }

    /// A list that does not scroll (everything fits) still holds items of their own: a
    /// focusable `GridView` with `scrollable="false"` made one stop of every row's text
    /// (Zomato's offers: "Brand Pack, Restaurant coupons"). TalkBack's `isTopLevelScrollItem`
    /// goes by the parent's role (list, grid, scroll view), and the list, with collection
    /// info, speaks no text of its own. A row the capture says is not important for
    /// accessibility is not one: its children are the list's items in TalkBack's tree.
    func testRowsOfAListThatDoesNotScrollAreStopsOfTheirOwn() throws {
        let snapshot = try android(
            ##"""
            <node class="android.widget.GridView" focusable="true" scrollable="false" package="com.example" bounds="[0,100][1080,1000]">
              <node class="android.view.ViewGroup" package="com.example" bounds="[40,120][1040,180]">
                <node class="android.widget.TextView" text="Brand Pack" package="com.example" bounds="[40,120][600,180]"/>
              </node>
              <node class="android.view.ViewGroup" package="com.example" bounds="[40,300][1040,360]">
                <node class="android.widget.TextView" text="Restaurant coupons" package="com.example" bounds="[40,300][600,360]"/>
                <node class="android.widget.TextView" text="3 offers" package="com.example" bounds="[640,300][1000,360]"/>
              </node>
            </node>
            """##)
        XCTAssertEqual(speech(snapshot), ["Brand Pack", "Restaurant coupons, 3 offers"])
        // The same rows under a plain focusable layout are its own text: one stop, as before.
        let layout = try android(
            ##"""
            <node class="android.widget.LinearLayout" focusable="true" package="com.example" bounds="[0,100][1080,1000]">
              <node class="android.view.ViewGroup" package="com.example" bounds="[40,120][1040,180]">
                <node class="android.widget.TextView" text="Brand Pack" package="com.example" bounds="[40,120][600,180]"/>
              </node>
              <node class="android.view.ViewGroup" package="com.example" bounds="[40,300][1040,360]">
                <node class="android.widget.TextView" text="Restaurant coupons" package="com.example" bounds="[40,300][600,360]"/>
              </node>
            </node>
            """##)
        XCTAssertEqual(speech(layout), ["Brand Pack, Restaurant coupons"])
        // A wrapper not important for accessibility: the text inside is the item.
        let wrapped = try android(
            ##"""
            <node class="android.widget.ScrollView" focusable="true" scrollable="false" package="com.example" bounds="[0,100][1080,1000]">
              <node class="android.widget.LinearLayout" a11y-important="false" package="com.example" bounds="[0,100][1080,1000]">
                <node class="android.widget.TextView" text="We could not find your account." package="com.example" bounds="[40,120][1040,300]"/>
              </node>
            </node>
            """##)
        let stops = Transcript(wrapped).stops
        XCTAssertEqual(stops.map(\.speech), ["We could not find your account."])
        XCTAssertEqual(stops.first.map { wrapped.elements[$0.element].role }, .text, "the text is the stop, not its wrapper")
    }

    /// Plain layouts are transparent (issue 53, pattern 2): a layout with no text, no
    /// description, nothing actionable or checkable is not important for accessibility on
    /// Android, so it is not in TalkBack's tree and is no list item — each text under it is
    /// an item of its own (React Native's settings: "Réglages, Forfait gratuit, …" was one
    /// stop). A layout with a description is important, and its texts are said as part of it.
    func testPlainLayoutsAreTransparentToTalkBack() throws {
        func screen(_ layoutAttributes: String) throws -> Snapshot {
            try android(
                ##"""
                <node class="android.widget.ScrollView" scrollable="true" package="com.example" bounds="[0,100][1080,1800]">
                  <node class="android.view.ViewGroup" \##(layoutAttributes) package="com.example" bounds="[0,100][1080,900]">
                    <node class="android.widget.TextView" text="Réglages" package="com.example" bounds="[40,120][600,180]"/>
                    <node class="android.widget.TextView" text="Forfait gratuit" package="com.example" bounds="[40,200][600,260]"/>
                  </node>
                </node>
                """##)
        }
        XCTAssertEqual(speech(try screen("")), ["Réglages", "Forfait gratuit"])
        XCTAssertEqual(speech(try screen(#"content-desc="Plan""#)), ["Plan"], "a described layout speaks for what is inside")
        XCTAssertEqual(speech(try screen(#"clickable="true""#)), ["Réglages, Forfait gratuit"], "an actionable row says its texts")
    }

    /// TalkBack reorders a node's children by their effective bounds (its
    /// `ReorderedChildrenIterator` and `NodeCachedBoundsCalculator`; issue 53, pattern 5):
    /// a row that is no stop of its own is placed where its stops are, so a control after it
    /// that shares its left, top and bottom edges — a checkbox at the row's start — is read
    /// before the row's texts; a row that is a stop keeps its place. And TalkBack's own
    /// example: an app bar after a list in the tree, laid over the list's top, is read first.
    func testChildrenAreReorderedByTheBoundsOfWhatTheyHold() throws {
        func row(_ rowAttributes: String) throws -> Snapshot {
            try android(
                ##"""
                <node class="android.view.View" \##(rowAttributes) package="com.example" bounds="[0,100][1080,260]">
                  <node class="android.widget.TextView" text="Remember me" package="com.example" bounds="[200,140][800,220]"/>
                </node>
                <node class="android.widget.CheckBox" checkable="true" checked="false" clickable="true" package="com.example" bounds="[0,100][160,260]"/>
                """##)
        }
        XCTAssertEqual(speech(try row(#"a11y-important="true""#)), ["not checked, checkbox", "Remember me"])
        XCTAssertEqual(speech(try row(#"clickable="true""#)), ["Remember me", "not checked, checkbox"], "a row that is a stop keeps its place")
        XCTAssertEqual(
            speech(try row(#"a11y-important="true""#), reader: .voiceover), ["Remember me", "checkbox, unchecked"],
            "VoiceOver keeps the tree's order")
        let appBar = try android(
            ##"""
            <node class="androidx.recyclerview.widget.RecyclerView" scrollable="true" package="com.example" bounds="[0,0][1080,2400]">
              <node class="android.widget.TextView" text="Item 2" clickable="true" package="com.example" bounds="[0,200][1080,400]"/>
              <node class="android.widget.TextView" text="Item 3" clickable="true" package="com.example" bounds="[0,400][1080,600]"/>
            </node>
            <node class="android.widget.TextView" text="App bar" package="com.example" bounds="[0,0][1080,200]"/>
            """##)
        XCTAssertEqual(speech(appBar), ["App bar", "Item 2", "Item 3"])
    }

    /// What TalkBack's own source decides that the differential test over the corpus found
    /// (issue 53): a node the capture marks not important is never a stop, clickable or not
    /// (a bottom sheet's scrim), and says nothing through its parent; `screen-reader-focusable`
    /// makes one stop of a node; a checkable node that is not clickable is no stop of its own
    /// but speaks through the control it is in; an empty field's hint makes it speak; a
    /// `TextSwitcher` is a layout, its text view the stop; a focusable node that scrolls is a
    /// stop when it speaks, and its words are not its parent's.
    func testStopsFollowTalkBacksOwnRules() throws {
        let scrim = try android(
            ##"""
            <node class="android.view.View" clickable="true" a11y-important="false" package="com.example" bounds="[0,0][1080,1200]"/>
            <node class="android.widget.TextView" text="Choose a plan" package="com.example" bounds="[40,1300][1040,1400]"/>
            <node class="android.widget.LinearLayout" clickable="true" package="com.example" bounds="[0,1400][1080,1600]">
              <node class="android.widget.TextView" text="Monthly" package="com.example" bounds="[40,1420][600,1480]"/>
              <node class="android.widget.TextView" text="(debug id 12)" a11y-important="false" package="com.example" bounds="[40,1500][600,1560]"/>
            </node>
            """##)
        XCTAssertEqual(speech(scrim), ["Choose a plan", "Monthly"])
        let focusableGroup = try android(
            ##"""
            <node class="android.view.ViewGroup" content-desc="Sucre, Jugador de futbol" screen-reader-focusable="true" package="com.example" bounds="[0,800][1080,900]">
              <node class="android.widget.Button" text="Sucre" clickable="true" a11y-important="false" package="com.example" bounds="[40,810][300,890]"/>
            </node>
            """##)
        XCTAssertEqual(speech(focusableGroup), ["Sucre, Jugador de futbol"])
        let toggle = try android(
            ##"""
            <node class="android.widget.FrameLayout" clickable="true" focusable="true" package="com.example" bounds="[584,124][720,294]">
              <node class="android.widget.ToggleButton" checkable="true" checked="false" package="com.example" bounds="[614,138][698,218]"/>
              <node class="android.widget.TextView" text="Account" package="com.example" bounds="[584,230][720,263]"/>
            </node>
            <node class="android.widget.EditText" clickable="true" focusable="true" hint="Password" package="com.example" bounds="[63,1068][1017,1205]">
              <node class="android.widget.Button" clickable="true" focusable="true" content-desc="Show password" package="com.example" bounds="[891,1074][1017,1200]"/>
            </node>
            <node class="android.widget.TextSwitcher" package="com.example" bounds="[40,1300][1040,1400]">
              <node class="android.widget.TextView" text="Recommended for you" package="com.example" bounds="[40,1300][1040,1400]"/>
            </node>
            """##)
        let transcript = Transcript(toggle)
        XCTAssertEqual(transcript.stops.map(\.speech), ["Account", "Password, edit box", "Show password, button", "Recommended for you"])
        XCTAssertEqual(transcript.stops.map { toggle.elements[$0.element].role }, [.container, .textfield, .button, .text])
    }

    /// A scroll view has no role word (TalkBack's `ROLE_SCROLL_VIEW` says none); a list does.
    /// A Compose progress indicator is a stop (Compose gives it a state description: "In
    /// progress", a percentage); a View-system spinner with nothing to say is not.
    func testScrollViewsProgressAndTheirWords() throws {
        let views = try android(
            ##"""
            <node class="android.widget.ScrollView" scrollable="true" focusable="true" content-desc="Terms" package="com.example" bounds="[0,100][1080,900]"/>
            <node class="androidx.recyclerview.widget.RecyclerView" scrollable="true" focusable="true" content-desc="Messages" package="com.example" bounds="[0,900][1080,1800]"/>
            <node class="android.widget.ProgressBar" package="com.example" bounds="[500,1900][580,1980]"/>
            """##)
        XCTAssertEqual(speech(views), ["Terms", "Messages, list"])
        let compose = try android(
            ##"""
            <node class="androidx.compose.ui.platform.ComposeView" package="com.example" bounds="[0,100][1080,2000]">
              <node class="android.view.View" package="com.example" bounds="[0,100][1080,2000]">
                <node class="android.widget.TextView" text="Loading your plan" package="com.example" bounds="[40,200][1040,260]"/>
                <node class="android.widget.ProgressBar" package="com.example" bounds="[500,300][580,380]"/>
              </node>
            </node>
            """##)
        XCTAssertEqual(speech(compose), ["Loading your plan", "progress bar"])
        XCTAssertTrue(Transcript(compose).gaps.contains { $0.hasPrefix("state descriptions: 1 stops") }, "\(Transcript(compose).gaps)")
    }

    /// An iOS source written in uiautomator's shape — `<hierarchy><node
    /// type="XCUIElementType…">`, as older Appium inspectors save them — is read as the
    /// XCUITest source it is: VoiceOver's stops, iOS's rules; a `<hierarchy>` whose nodes have
    /// an Android `class` stays Android.
    func testAnIOSSourceInUiautomatorsShapeIsReadAsXCUITest() throws {
        let source = ##"""
            <?xml version="1.0" encoding="UTF-8"?>
            <hierarchy>
              <node type="XCUIElementTypeApplication" name="Settings" label="Settings" enabled="true" visible="true" x="0" y="0" width="390" height="844">
                <node type="XCUIElementTypeWindow" enabled="true" visible="true" x="0" y="0" width="390" height="844">
                  <node type="XCUIElementTypeStaticText" name="Settings" label="Settings" value="Settings" enabled="true" visible="true" x="16" y="91" width="140" height="41" traits="Header"/>
                  <node type="XCUIElementTypeSwitch" name="Airplane Mode" label="Airplane Mode" value="0" enabled="true" visible="true" x="316" y="250" width="51" height="31"/>
                </node>
              </node>
            </hierarchy>
            """##
        let snapshot = try SnapshotParser().parse(Array(source.utf8))
        XCTAssertEqual(snapshot.platform, .ios)
        XCTAssertEqual(snapshot.dialect, .appiumXCUITest)
        XCTAssertEqual(snapshot.path(of: 3), "/hierarchy/node[1]/node[1]/node[2]")
        let transcript = Transcript(snapshot)
        XCTAssertEqual(transcript.reader, .voiceover)
        XCTAssertEqual(transcript.stops.map(\.speech), ["Settings, heading", "Airplane Mode, switch button, off"])
        XCTAssertEqual(transcript.stops.map { $0.usageHint?.text }, [nil, "Double tap to toggle setting"])
        let android = try SnapshotParser().parse(
            Array(##"<hierarchy><node class="android.widget.TextView" type="XCUIElementTypeButton" text="Hi" bounds="[0,0][100,100]"/></hierarchy>"##.utf8))
        XCTAssertEqual(android.platform, .android)
    }

    /// TalkBack never focuses a node with children that has its window's bounds
    /// (`shouldFocusNode`: "non-leaf nodes that have the same bounds as the window"): a
    /// full-screen scrim described "Dismiss" over a sheet, a root with a page description.
    /// The same node smaller than its window is a stop.
    func testANodeWithChildrenSpanningItsWindowIsNoStop() throws {
        func screen(_ bounds: String) throws -> Snapshot {
            try android(
                ##"""
                <node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][1080,2400]">
                  <node class="android.view.View" content-desc="Dismiss" clickable="true" package="com.example" bounds="\##(bounds)">
                    <node class="android.widget.TextView" text="Select language" package="com.example" bounds="[40,1800][1040,1900]"/>
                  </node>
                </node>
                """##)
        }
        XCTAssertEqual(speech(try screen("[0,0][1080,2400]")), ["Select language"])
        XCTAssertEqual(speech(try screen("[0,1700][1080,2400]")), ["Dismiss"])
    }

    /// Names as the readers give them (issue 53, patterns 4 and 6): VoiceOver calls a field
    /// without a label by its value, or its placeholder when empty — its name, not only its
    /// speech; TalkBack names an edit box by what is typed, its description only when empty;
    /// and announces a clickable image as a button, a plain one as an image.
    func testFieldsAndClickableImagesAreNamedAsTheReadersDo() throws {
        let ios = try SnapshotParser().parse(
            Array(
                ##"""
                <snapshot version="1" platform="ios" width="390" height="844">
                  <element id="email" role="textfield" value="jane@example.com" frame="16,100,358,44"/>
                  <element id="code" role="textfield" placeholder="Promo code" frame="16,160,358,44"/>
                  <element id="name" role="textfield" label="Name" value="Jane" frame="16,220,358,44"/>
                </snapshot>
                """##.utf8))
        let fields = Transcript(ios).stops
        XCTAssertEqual(fields.map(\.name), ["jane@example.com", "Promo code", "Name"])
        XCTAssertEqual(fields.map(\.speech), ["jane@example.com, text field", "Promo code, text field", "Name, Jane, text field"])
        let android = try android(
            ##"""
            <node class="android.widget.EditText" text="jane@example.com" content-desc="Email" clickable="true" package="com.example" bounds="[40,100][1040,200]"/>
            <node class="android.widget.EditText" text="" content-desc="Password" clickable="true" package="com.example" bounds="[40,220][1040,320]"/>
            <node class="android.widget.ImageView" content-desc="Profile" clickable="true" package="com.example" bounds="[40,400][200,560]"/>
            <node class="android.widget.ImageView" content-desc="Logo" package="com.example" bounds="[400,400][560,560]"/>
            """##)
        XCTAssertEqual(speech(android), ["jane@example.com, edit box", "Password, edit box", "Profile, button", "Logo, image"])
    }

    /// A table's cell without a label is one VoiceOver element reading its texts in order
    /// (UIKit's `UITableViewCell`; issue 53, pattern 3): UICatalog's "Buttons, Various uses
    /// of UIButton" was two stops. A collection view's cell is not an element by default:
    /// its texts stay stops of their own.
    func testATableCellIsOneElementAndACollectionCellIsNot() throws {
        func source(_ container: String) throws -> Snapshot {
            try SnapshotParser().parse(
                Array(
                    ##"""
                    <AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="UICatalog" enabled="true" visible="true" x="0" y="0" width="375" height="667">
                      <XCUIElementTypeWindow type="XCUIElementTypeWindow" enabled="true" visible="true" x="0" y="0" width="375" height="667">
                        <\##(container) type="\##(container)" enabled="true" visible="true" x="0" y="64" width="375" height="603">
                          <XCUIElementTypeCell type="XCUIElementTypeCell" enabled="true" visible="true" x="0" y="64" width="375" height="60">
                            <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="Buttons" name="Buttons" label="Buttons" enabled="true" visible="true" x="15" y="70" width="100" height="21"/>
                            <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="Various uses of UIButton" name="Various uses of UIButton" label="Various uses of UIButton" enabled="true" visible="true" x="15" y="94" width="200" height="15"/>
                          </XCUIElementTypeCell>
                        </\##(container)>
                      </XCUIElementTypeWindow>
                    </XCUIElementTypeApplication></AppiumAUT>
                    """##.utf8))
        }
        XCTAssertEqual(speech(try source("XCUIElementTypeTable")), ["Buttons, Various uses of UIButton"])
        XCTAssertEqual(speech(try source("XCUIElementTypeCollectionView")), ["Buttons", "Various uses of UIButton"])
    }

    func testListRowsThatSpeakAreStopsAndSilentOnesAreNot() throws {
        let snapshot = try android(
            ##"""
            <node class="androidx.recyclerview.widget.RecyclerView" scrollable="true" package="com.example" bounds="[0,100][1080,2000]">
              <node class="android.widget.LinearLayout" package="com.example" bounds="[0,100][1080,300]">
                <node class="android.widget.TextView" text="Alice" package="com.example" bounds="[40,120][600,180]"/>
                <node class="android.widget.TextView" text="See you at 6" package="com.example" bounds="[40,190][600,250]"/>
              </node>
              <node class="android.widget.LinearLayout" package="com.example" bounds="[0,300][1080,500]"/>
            </node>
            """##)
        let transcript = Transcript(snapshot)
        XCTAssertEqual(transcript.stops.map(\.speech), ["Alice, See you at 6"])
        XCTAssertEqual(transcript.reader, .talkback)
    }

    func testComposeIsReadByPositionNotByTree() throws {
        // A Scaffold's content first in the tree, its top bar after: TalkBack hears the bar
        // first (Compose's traversal links), and a row's parts left to right.
        let snapshot = try android(
            ##"""
            <node class="androidx.compose.ui.platform.ComposeView" package="com.example" bounds="[0,0][1080,2400]">
              <node class="android.view.View" package="com.example" bounds="[0,300][1080,2000]">
                <node class="android.widget.TextView" text="Soy Servidor" package="com.example" bounds="[40,400][1040,600]"/>
                <node class="android.widget.TextView" text="2" package="com.example" bounds="[900,700][1040,800]"/>
                <node class="android.widget.TextView" text="Items" package="com.example" bounds="[40,700][600,800]"/>
              </node>
              <node class="android.view.View" package="com.example" bounds="[0,88][1080,300]">
                <node class="android.widget.TextView" text="BTVideoStream" package="com.example" bounds="[40,120][600,260]"/>
              </node>
              <node class="android.view.View" clickable="true" package="com.example" bounds="[0,2000][540,2200]">
                <node class="android.widget.TextView" text="Home" package="com.example" bounds="[40,2100][500,2180]"/>
              </node>
            </node>
            """##)
        XCTAssertEqual(speech(snapshot), ["BTVideoStream", "Soy Servidor", "Items", "2", "Home"])
        // The same views outside Compose are read in tree order.
        let views = try android(
            ##"""
            <node class="android.widget.TextView" text="Soy Servidor" package="com.example" bounds="[40,400][1040,600]"/>
            <node class="android.widget.TextView" text="BTVideoStream" package="com.example" bounds="[40,120][600,260]"/>
            """##)
        XCTAssertEqual(speech(views), ["Soy Servidor", "BTVideoStream"])
    }

    /// Compose's positional order, found through bands of the screen (a linear search per
    /// stop was quadratic: 100,000 stops took 3.35 s), checked against Compose's rule as
    /// written (each stop joins the first row it overlaps, searched one by one) on seeded
    /// random screens: rows, overlaps, tall boxes and boxes far down.
    func testComposeOrderMatchesTheRuleAsWrittenOnRandomScreens() throws {
        let seed: UInt64 = 0xC0_4905E
        print("TranscriptModelTests compose seed \(seed)")
        var random = SplitMix64(seed: seed)
        for round in 0..<40 {
            var nodes = ""
            for item in 0..<(20 + Int(random.next() % 200)) {
                let x = Int(random.next() % 1000), width = 10 + Int(random.next() % 300)
                let y = Int(random.next() % 6000), height = random.next() % 10 == 0 ? 100 + Int(random.next() % 3000) : 20 + Int(random.next() % 120)
                nodes +=
                    #"<node class="android.widget.TextView" text="t\#(item)" package="com.example" bounds="[\#(x),\#(y)][\#(x + width),\#(y + height)]"/>"#
            }
            let snapshot = try android(
                #"<node class="androidx.compose.ui.platform.ComposeView" package="com.example" bounds="[0,0][1080,9200]">\#(nodes)</node>"#)
            // The rule as written, over the stops' frames in tree order.
            let texts = snapshot.elements.indices.filter { snapshot.node($0).visibleText?.hasPrefix("t") == true }
            struct Row {
                var top: Double, bottom: Double, members: [Int]
            }
            var rows: [Row] = []
            for index in texts {
                let box = try XCTUnwrap(snapshot.elements[index].frame)
                if let row = rows.firstIndex(where: { $0.top < box.maxY - 0.01 && box.minY < $0.bottom - 0.01 }) {
                    rows[row].top = max(rows[row].top, box.minY)
                    rows[row].bottom = min(rows[row].bottom, box.maxY)
                    rows[row].members.append(index)
                } else {
                    rows.append(Row(top: box.minY, bottom: box.maxY, members: [index]))
                }
            }
            let expected = rows.enumerated().sorted { ($0.element.top, $0.element.bottom, $0.offset) < ($1.element.top, $1.element.bottom, $1.offset) }
                .flatMap { row in
                    row.element.members.enumerated().sorted { a, b in
                        let empty = Rect(x: 0, y: 0, width: 0, height: 0)
                        let x = snapshot.elements[a.element].frame ?? empty, y = snapshot.elements[b.element].frame ?? empty
                        return (x.minX, x.minY, x.maxY, a.offset) < (y.minX, y.minY, y.maxY, b.offset)
                    }.map { snapshot.node($0.element).visibleText ?? "" }
                }
            XCTAssertEqual(speech(snapshot), expected, "round \(round)")
        }
    }

    func testCustomActionsAreAnnouncedAndRotorsList() throws {
        let snapshot = try SnapshotParser().parse(
            Array(
                ##"""
                <snapshot version="1" platform="ios" width="390" height="844">
                  <element id="m1" role="cell" label="Alice, See you at 6" actions="Delete;Archive; " rotor="Unread" frame="0,100,390,60"/>
                  <element id="m2" role="cell" label="Bob, Lunch?" frame="0,160,390,60"/>
                  <element id="m3" role="cell" label="Carol, Tickets" rotor="Unread" hint="Opens the thread" frame="0,220,390,60"/>
                </snapshot>
                """##.utf8))
        let transcript = Transcript(snapshot)
        XCTAssertEqual(
            transcript.stops.map(\.speech), ["Alice, See you at 6, actions available", "Bob, Lunch?", "Carol, Tickets, Opens the thread"])
        XCTAssertEqual(transcript.stops.first?.actions, ["Delete", "Archive"])
        // What few stops have is kept apart from the stop, which a screen holds one of for
        // every stop (72 bytes, not 112).
        XCTAssertEqual(transcript.stops.map(\.actions), [["Delete", "Archive"], [], []])
        XCTAssertEqual(transcript.stops.map(\.rotor), ["Unread", nil, "Unread"])
        XCTAssertEqual(transcript.stops.map(\.hint), [nil, nil, "Opens the thread"])
        XCTAssertEqual(transcript.stops.map(\.index), [1, 2, 3])
        XCTAssertEqual(transcript.stops.map(\.element), [0, 1, 2])
        XCTAssertLessThanOrEqual(MemoryLayout<TranscriptStop>.stride, 72)
        XCTAssertEqual(transcript.rotors.map(\.name), ["Unread"])
        XCTAssertEqual(transcript.rotors.first?.stops.map(\.index), [1, 3])
        let json = TranscriptWriter.json(transcript, of: snapshot).rendered(pretty: false)
        XCTAssertTrue(json.contains(#""actions":["Delete","Archive"]"#), json)
        XCTAssertTrue(json.contains(#""rotors":[{"name":"Unread","stops":[1,3]}]"#), json)
    }

    func testAnOpenAlertIsAllVoiceOverReaches() throws {
        // The app's window and, in a window above it, an alert: VoiceOver stays in the alert.
        let source = ##"""
            <AppiumAUT><XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Shop" x="0" y="0" width="390" height="844">
              <XCUIElementTypeWindow type="XCUIElementTypeWindow" x="0" y="0" width="390" height="844">
                <XCUIElementTypeButton type="XCUIElementTypeButton" name="Checkout" label="Checkout" x="20" y="700" width="350" height="50" enabled="true" visible="true" accessible="true"/>
              </XCUIElementTypeWindow>
              <XCUIElementTypeWindow type="XCUIElementTypeWindow" x="0" y="0" width="390" height="844">
                <XCUIElementTypeAlert type="XCUIElementTypeAlert" name="Remove item?" label="Remove item?" x="60" y="330" width="270" height="150" enabled="true" visible="true" accessible="false">
                  <XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="Remove item?" name="Remove item?" label="Remove item?" x="76" y="350" width="238" height="22" enabled="true" visible="true" accessible="true"/>
                  <XCUIElementTypeButton type="XCUIElementTypeButton" name="Remove" label="Remove" x="60" y="436" width="270" height="44" enabled="true" visible="true" accessible="true"/>
                </XCUIElementTypeAlert>
              </XCUIElementTypeWindow>
            </XCUIElementTypeApplication></AppiumAUT>
            """##
        let transcript = Transcript(try SnapshotParser().parse(Array(source.utf8)))
        XCTAssertEqual(transcript.stops.map(\.speech), ["Remove item?", "Remove, button"])
        XCTAssertEqual(transcript.notes, ["1 elements outside the open modal (an alert, a view with accessibilityViewIsModal) are not stops"])
        // Without the alert, the app's button is a stop.
        let closed = source.replacingOccurrences(of: "XCUIElementTypeAlert", with: "XCUIElementTypeOther")
        XCTAssertEqual(Transcript(try SnapshotParser().parse(Array(closed.utf8))).stops.first?.speech, "Checkout, button")
    }

    /// Each stop carries the hash of its speech, made once with it (the same-speech rule
    /// groups by it): on every real capture it is the hash of what the stop says.
    func testEachStopsSpeechHashIsTheHashOfItsSpeech() throws {
        var stops = 0
        for platform in ["android", "ios"] {
            let folder = TestSupport.corpus.appendingPathComponent(platform)
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".xml") {
                let bytes = try Array(Data(contentsOf: folder.appendingPathComponent(name)))
                guard let snapshot = try? SnapshotParser().parse(bytes) else { continue }
                for stop in Transcript(snapshot).stops {
                    var hash = FNV1a()
                    hash.add(stop.speech)
                    XCTAssertEqual(stop.speechHash, hash.value, "\(name): stop \(stop.index) (\(stop.speech))")
                    stops += 1
                }
            }
        }
        XCTAssertGreaterThan(stops, 500, "the corpus's captures have stops to check")
    }

    func testTheDigestFollowsWhatIsSaidNotWhereItIs() throws {
        let first = try android(##"<node class="android.widget.Button" text="Pay" clickable="true" package="com.example" bounds="[0,100][500,200]"/>"##)
        let moved = try android(##"<node class="android.widget.Button" text="Pay" clickable="true" resource-id="pay" package="com.example" bounds="[0,900][800,1000]"/>"##)
        let renamed = try android(##"<node class="android.widget.Button" text="Buy" clickable="true" package="com.example" bounds="[0,100][500,200]"/>"##)
        XCTAssertEqual(Transcript(first).digest, Transcript(moved).digest)
        XCTAssertNotEqual(Transcript(first).digest, Transcript(renamed).digest)
        XCTAssertNotEqual(Transcript(first).digest, Transcript(first, reader: .voiceover).digest, "the reader is part of what is said")
    }

    func testVoiceOverSaysLabelValueRoleAndState() throws {
        let xml = TestSupport.native(
            ##"""
            <element id="h" role="text" text="Settings" traits="header" frame="16,60,358,41"/>
            <element id="s" role="switch" label="Public profile" value="1" frame="300,100,51,31"/>
            <element id="f" role="textfield" label="Name" value="Dana" frame="16,150,300,44"/>
            <element id="b" role="button" label="Delete" enabled="false" frame="16,200,100,44"/>
            <element id="c" role="container" frame="0,300,390,100"><element id="t" role="text" text="Inside" frame="16,310,100,20"/></element>
            """##)
        let snapshot = try TestSupport.parse(xml)
        XCTAssertEqual(speech(snapshot), ["Settings, heading", "Public profile, switch button, on", "Name, Dana, text field", "Delete, button, dimmed", "Inside"])
    }
}

/// What several rules read of one snapshot is made once, whichever thread asks first.
final class SnapshotMemoTests: XCTestCase {
    func testAValueIsMadeOnceUnderConcurrentAskers() {
        let memo = SnapshotMemo()
        let made = Counter()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let value = memo.value("answer") { () -> Int in
                made.add()
                usleep(2_000)
                return 42
            }
            XCTAssertEqual(value, 42)
        }
        XCTAssertEqual(made.value, 1)
    }

    /// A value being made holds up only the readers of its own key: the rules reading the
    /// transcript do not wait for the element identities built beside them.
    func testAnotherKeyIsNotHeldUpByAValueBeingMade() {
        let memo = SnapshotMemo()
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let slowDone = Counter()
        DispatchQueue.global().async {
            _ = memo.value("slow") { () -> Int in
                started.signal()
                _ = release.wait(timeout: .now() + 10)
                return 1
            }
            slowDone.add()
            finished.signal()
        }
        started.wait()
        XCTAssertEqual(memo.value("quick") { 2 }, 2)
        XCTAssertEqual(slowDone.value, 0, "reading another key waited for the slow value to be made")
        release.signal()
        finished.wait()
        XCTAssertEqual(memo.value("slow") { 3 }, 1)
    }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
