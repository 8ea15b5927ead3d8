/// A seeded generator of realistic native snapshots of N elements: screens of sections,
/// list cells with titles, prices, images and buttons, switches, and a few animations —
/// with a realistic share of problems (low contrast, small targets, missing labels).
struct SnapshotGenerator {
    /// SplitMix64: small, fast, and the same sequence for the same seed everywhere.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    }

    var random: Random
    let target: Int

    init(elements: Int, seed: UInt64) {
        random = Random(state: seed)
        target = max(elements, 2)
    }

    static let words = ["Order", "Shoes", "Invoice", "Profile", "Settings", "Delivery", "Coffee", "Weekly plan",
                        "Running", "Socks", "Summer sale", "Notifications", "Privacy", "Account", "Photos", "Music"]
    static let greys = ["#000000", "#1C1C1E", "#3C3C43", "#636366", "#767676", "#8E8E93", "#AEAEB2", "#C7C7CC"]
    static let accents = ["#007AFF", "#34C759", "#FF3B30", "#FF9500", "#5856D6", "#0A84FF"]

    mutating func generate() -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <snapshot version="1" platform="ios" app="com.example.generated" build="1" screen="Generated \(target)" width="390" height="844" scale="3">
              <settings reduce-motion="true" content-size="l" color-scheme="light"/>
              <element id="root" role="window" frame="0,0,390,844" background="#FFFFFF">

            """
        var count = 1
        var section = 0
        while count < target {
            section += 1
            let y = 100 + (section % 40) * 90
            out += "    <element id=\"section-\(section)\" role=\"container\" frame=\"0,\(y),390,\(88)\" background=\"#F2F2F7\">\n"
            count += 1
            var cell = 0
            while count < target, cell < 8 {
                cell += 1
                out += cellMarkup(section: section, cell: cell, y: y, count: &count)
            }
            out += "    </element>\n"
        }
        out += "  </element>\n</snapshot>\n"
        return out
    }

    private mutating func cellMarkup(section: Int, cell: Int, y: Int, count: inout Int) -> String {
        let id = "s\(section)-c\(cell)"
        var out = "      <element id=\"\(id)\" role=\"cell\" frame=\"0,\(y),390,80\">\n"
        count += 1
        let word = Self.words[random.below(Self.words.count)]
        let grey = Self.greys[random.below(Self.greys.count)]
        let accent = Self.accents[random.below(Self.accents.count)]
        let parts = [
            "        <element id=\"\(id)-title\" role=\"text\" text=\"\(word) \(section)\" frame=\"16,\(y + 8),250,22\" foreground=\"\(grey)\" font-size=\"17\" font-weight=\"\(random.chance(30) ? "bold" : "regular")\" text-style=\"body\"/>\n",
            "        <element id=\"\(id)-price\" role=\"text\" text=\"$\(random.below(200)).00\" frame=\"300,\(y + 8),74,22\" foreground=\"\(grey)\" font-size=\"15\"/>\n",
            random.chance(20)
                ? "        <element id=\"\(id)-icon\" role=\"image\" image=\"icon_\(word.lowercased())\" frame=\"16,\(y + 40),24,24\"/>\n"
                : "        <element id=\"\(id)-icon\" role=\"image\" label=\"\(word)\" frame=\"16,\(y + 40),24,24\"/>\n",
            "        <element id=\"\(id)-action\" role=\"button\" label=\"\(random.chance(10) ? "Buy button" : "Buy")\" frame=\"290,\(y + 40),\(random.chance(25) ? 24 : 84),\(random.chance(25) ? 24 : 44)\" foreground=\"#FFFFFF\" background=\"\(accent)\" font-size=\"15\"/>\n",
            "        <element id=\"\(id)-switch\" role=\"switch\" label=\"\(word)\" value=\"\(random.below(2))\" frame=\"200,\(y + 40),51,31\"><animation kind=\"\(random.chance(50) ? "fade" : "slide")\" duration=\"0.3\" honors-reduce-motion=\"\(random.chance(80))\"/></element>\n",
        ]
        for part in parts where count < target {
            out += part
            count += 1
        }
        out += "      </element>\n"
        return out
    }
}
