/// What an Appium source's element type (`XCUIElementTypeButton`, …) says of its element:
/// its role, and whether it is the system's, modal, scrolls, or is the application. Read
/// from the name as a `String` once per distinct name in a document (``AppiumTypeMemo``),
/// not once per element: a 100,000-element page source made five strings an element
/// from the same two dozen names.
struct AppiumTypeFacts: Equatable {
    var role: Role
    /// The system keyboard and status bar: their keys and items are not the app's targets.
    var systemUI: Bool
    /// An alert or an action sheet: VoiceOver reaches nothing else while one is open.
    var modal: Bool
    var scrollAxes: ScrollAxes?
    /// `XCUIElementTypeApplication`: its frame is the screen's, its label the app's name.
    var isApplication: Bool

    init(typeName: String) {
        role = AppiumXCUITestDialect.appiumRole(type: typeName)
        systemUI = typeName == "XCUIElementTypeKeyboard" || typeName == "XCUIElementTypeStatusBar"
        modal = typeName == "XCUIElementTypeAlert" || typeName == "XCUIElementTypeSheet"
        scrollAxes = AppiumXCUITestDialect.scrollingTypes[typeName]
        isApplication = typeName == "XCUIElementTypeApplication"
    }
}

/// ``AppiumTypeFacts`` by the type name's bytes, for one document: the names seen, back to
/// back, each with its facts; the last one found is tried first (siblings share types).
/// Holds at most ``capacity`` names — a document of ever new names (which no capture is)
/// has the others read as strings each time, never a longer search.
struct AppiumTypeMemo {
    static let capacity = 64

    private var names: [UInt8] = []
    private var entries: [(start: Int, count: Int, facts: AppiumTypeFacts)] = []
    private var last = 0

    /// The facts of the type named by `name` (UTF-8 bytes, decoded as `String` does).
    mutating func facts(of name: UnsafeBufferPointer<UInt8>) -> AppiumTypeFacts {
        let key = UnsafeRawBufferPointer(name)
        let found: Int? = names.withUnsafeBytes { names in
            func matches(_ entry: Int) -> Bool {
                let (start, count, _) = entries[entry]
                return count == key.count && UnsafeRawBufferPointer(rebasing: names[start..<start + count]).hasSameBytes(as: key)
            }
            if last < entries.count, matches(last) { return last }
            return entries.indices.first(where: matches)
        }
        if let found {
            last = found
            return entries[found].facts
        }
        let facts = AppiumTypeFacts(typeName: String(decoding: name, as: UTF8.self))
        if entries.count < Self.capacity {
            entries.append((names.count, name.count, facts))
            names.append(contentsOf: name)
            last = entries.count - 1
        }
        return facts
    }
}
