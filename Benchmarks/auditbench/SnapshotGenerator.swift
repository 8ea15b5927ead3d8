import AuditCore
/// A seeded generator of realistic native snapshots of N elements: a long scrolling list
/// of sections of cells, each with a title, a price, an icon, a button and a switch with an
/// animation. About `problemRate` of the elements carry a real problem (low contrast, an
/// asset-name label, a missing label, a small target, a redundant trait, motion that
/// ignores Reduce Motion), as in a real app; the rest pass.
struct SnapshotGenerator {
    /// SplitMix64 (AuditSupport's), with the generator's own draws.
    struct Random {
        var numbers: SplitMix64
        init(state: UInt64) { numbers = SplitMix64(seed: state) }
        mutating func next() -> UInt64 { numbers.next() }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func chance(_ probability: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < probability }
    }

    var random: Random
    let target: Int
    let problemRate: Double

    init(elements: Int, seed: UInt64, problemRate: Double = 0.03) {
        random = Random(state: seed)
        target = max(elements, 2)
        self.problemRate = problemRate
    }

    static let words = [
        "Order", "Shoes", "Invoice", "Profile", "Settings", "Delivery", "Coffee", "Weekly plan",
        "Running", "Socks", "Summer sale", "Notifications", "Privacy", "Account", "Photos", "Music",
    ]
    static let darkText = ["#000000", "#1C1C1E", "#3A3A3C", "#48484A"]
    static let lightText = ["#AEAEB2", "#C7C7CC", "#D1D1D6"]
    static let accents = ["#0060DF", "#1E7D34", "#C4271E", "#5856D6", "#8A4B00"]

    mutating func problem() -> Bool { random.chance(problemRate) }

    mutating func generate() -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <snapshot version="1" platform="ios" app="com.example.generated" build="1" screen="Generated \(target)" width="390" height="844" scale="3">
              <settings reduce-motion="true" content-size="l" color-scheme="light"/>
              <element id="root" role="window" frame="0,0,390,844" background="#FFFFFF">

            """
        var count = 1
        var section = 0
        var y = 100
        while count < target {
            section += 1
            out += "    <element id=\"section-\(section)\" role=\"container\" frame=\"0,\(y),390,640\" background=\"#F2F2F7\">\n"
            count += 1
            var cell = 0
            while count < target, cell < 8 {
                cell += 1
                out += cellMarkup(section: section, cell: cell, y: y, count: &count)
                y += 80
            }
            out += "    </element>\n"
        }
        out += "  </element>\n</snapshot>\n"
        return out
    }

    private mutating func cellMarkup(section: Int, cell: Int, y: Int, count: inout Int) -> String {
        let id = "s\(section)-c\(cell)"
        var out = "      <element id=\"\(id)\" role=\"cell\" frame=\"0,\(y),390,80\" background=\"#FFFFFF\">\n"
        count += 1
        let word = Self.words[random.below(Self.words.count)]
        let titleColor = problem() ? Self.lightText[random.below(Self.lightText.count)] : Self.darkText[random.below(Self.darkText.count)]
        let priceColor = problem() ? Self.lightText[random.below(Self.lightText.count)] : Self.darkText[random.below(Self.darkText.count)]
        let accent = Self.accents[random.below(Self.accents.count)]
        let icon =
            problem()
            ? "image=\"icon_\(word.lowercased())\""
            : (problem() ? "label=\"IMG_\(1000 + random.below(9000))\"" : "image=\"sf.\(word.lowercased())\" label=\"\(word)\"")
        let buttonLabel = problem() ? "Buy button" : "Buy \(word.lowercased())"
        let small = problem()
        let parts = [
            "        <element id=\"\(id)-title\" role=\"text\" text=\"\(word) \(section)\" frame=\"16,\(y + 8),250,22\" foreground=\"\(titleColor)\" font-size=\"17\" font-weight=\"\(random.chance(0.3) ? "bold" : "regular")\" text-style=\"body\"/>\n",
            "        <element id=\"\(id)-price\" role=\"text\" text=\"$\(random.below(200)).00\" frame=\"300,\(y + 8),74,22\" foreground=\"\(priceColor)\" font-size=\"15\" text-style=\"subheadline\"/>\n",
            "        <element id=\"\(id)-icon\" role=\"image\" \(icon) frame=\"16,\(y + 40),24,24\" foreground=\"#3C3C43\"/>\n",
            "        <element id=\"\(id)-action\" role=\"button\" label=\"\(buttonLabel)\" frame=\"290,\(y + 36),\(small ? 20 : 84),\(small ? 20 : 44)\" foreground=\"#FFFFFF\" background=\"\(accent)\" font-size=\"15\"/>\n",
            "        <element id=\"\(id)-switch\" role=\"switch\" label=\"\(word)\" value=\"\(random.below(2))\" frame=\"200,\(y + 40),51,31\" hit-frame=\"196,\(y + 34),59,44\" background=\"#248A3D\"><animation kind=\"\(random.chance(0.5) ? "fade" : "slide")\" duration=\"0.3\" honors-reduce-motion=\"\(!problem())\"/></element>\n",
        ]
        for part in parts where count < target {
            out += part
            count += 1
        }
        out += "      </element>\n"
        return out
    }
}
