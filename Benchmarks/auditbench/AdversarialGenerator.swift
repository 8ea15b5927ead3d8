/// `auditbench adversarial SHAPE N`: native snapshots of N elements whose geometry or
/// text defeats naive pairwise checks (issue 16). Each shape is one way real screens
/// crowd: the rules must stay near linear on all of them.
enum AdversarialGenerator {
    static let shapes = [
        "stacked-sections", "identical-frames", "dense-grid", "huge-frames", "wide-siblings",
        "duplicate-labels", "deep-nesting", "crossing-bars", "many-findings",
    ]

    /// The snapshot, or nil for an unknown shape.
    static func generate(_ shape: String, elements count: Int) -> String? {
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += #"<snapshot version="1" platform="ios" app="com.example.adversarial" screen="\#(shape)" width="390" height="844" scale="3">"# + "\n"
        let n = max(1, count)
        switch shape {
        case "stacked-sections":
            // Tabs or carousel pages stacked at one offset: every section's rows share frames.
            let rows = 50
            for section in 0..<max(1, n / (rows + 1)) {
                out += #"<element id="s\#(section)" role="container" frame="0,0,390,3000">"#
                for row in 0..<rows {
                    out += #"<element id="s\#(section)-r\#(row)" role="button" label="Row \#(row)" frame="0,\#(row * 60),390,60"/>"#
                }
                out += "</element>\n"
            }
        case "identical-frames":
            for index in 0..<n {
                out += #"<element id="b\#(index)" role="button" label="Item \#(index)" frame="10,10,30,30"/>"# + "\n"
            }
        case "dense-grid":
            // Overlapping small targets on a tight pitch: every target has neighbours within 24 pt.
            let side = Int(Double(n).squareRoot().rounded(.up))
            for index in 0..<n {
                let x = (index % side) * 15, y = (index / side) * 15
                out += #"<element id="g\#(index)" role="button" label="Cell \#(index)" frame="\#(x),\#(y),20,20"/>"# + "\n"
            }
        case "huge-frames":
            for index in 0..<n {
                out += #"<element id="h\#(index)" role="button" label="Layer \#(index)" frame="0,0,4096,4096"/>"# + "\n"
            }
        case "wide-siblings":
            // Very wide, thin siblings one under the other (no overlap).
            for index in 0..<n {
                out += #"<element id="w\#(index)" role="button" label="Band \#(index)" frame="-100000,\#(index * 50),200000,44"/>"# + "\n"
            }
        case "duplicate-labels":
            for index in 0..<n {
                out += #"<element id="d\#(index)" role="button" label="Details" frame="\#((index % 8) * 48),\#((index / 8) * 48),44,44"/>"# + "\n"
            }
        case "deep-nesting":
            // Chains of nested buttons with one frame, 200 deep (the parser allows 256):
            // within a chain every earlier button is an ancestor.
            var index = 0
            while index < n {
                let depth = min(200, n - index)
                for level in 0..<depth {
                    out += #"<element id="n\#(index + level)" role="button" label="Level \#(level)" frame="0,0,40,40">"#
                }
                out += String(repeating: "</element>", count: depth) + "\n"
                index += depth
            }
        case "crossing-bars":
            // Thin bars crossing at tiny overlaps (below the 1 pt² that counts).
            let half = max(1, n / 2)
            for index in 0..<half {
                out += #"<element id="hb\#(index)" role="button" label="H\#(index)" frame="0,\#(index * 2),\#(half * 2),0.5"/>"# + "\n"
            }
            for index in 0..<(n - half) {
                out += #"<element id="vb\#(index)" role="button" label="V\#(index)" frame="\#(index * 2),0,0.5,\#(half * 2)"/>"# + "\n"
            }
        case "many-findings":
            // Several findings on every element: small unnamed icon buttons drawn in pale
            // grey, in pairs of one frame on a pitch that overlaps their neighbours, each
            // beside a pale caption of fixed size — label, size, spacing, duplicate,
            // contrast and Dynamic Type findings at once.
            let side = Int((Double(n) / 2).squareRoot().rounded(.up))
            for index in 0..<(n / 2) {
                let cell = index / 2
                let x = (cell % side) * 15, y = (cell / side) * 15
                out += ##"<element id="m\##(index)" role="button" image="ic_item_\##(index)" frame="\##(x),\##(y),20,20" foreground="#D1D1D6"/>"##
                out +=
                    ##"<element id="t\##(index)" role="text" text="Item \##(index)" frame="\##(x),\##(y + 20),40,12" foreground="#C7C7CC" font-size="9" scales-with-content-size="false"/>"##
                    + "\n"
            }
        default:
            return nil
        }
        out += "</snapshot>\n"
        return out
    }
}
