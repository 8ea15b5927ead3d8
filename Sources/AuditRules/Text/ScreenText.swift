import Foundation

/// What the OCR rules compare the screenshot's text with: each element's texts as a screen
/// reader could get them (label, text, value, hint, placeholder), folded (``SpokenWords``)
/// and placed in screenshot pixels; the regions that are not the app's (system UI); and
/// the image-like elements whose pixels hold text in a picture.
struct ScreenText {
    let snapshot: Snapshot
    let mapping: ScreenshotMapping
    /// Per element: its folded texts, joined by spaces; empty when it has none.
    let folded: [[UInt8]]
    /// Per element: its frame in screenshot pixels (empty without a frame).
    let boxes: [PixelRect]
    /// Every element's folded texts, joined: a word read anywhere on it is exposed.
    let everything: [UInt8]
    /// The boxes of the app's top-level elements: its windows.
    let appWindows: [PixelRect]

    init?(_ snapshot: Snapshot) {
        guard let mapping = snapshot.screenshot else { return nil }
        self.snapshot = snapshot
        self.mapping = mapping
        var folded: [[UInt8]] = []
        var boxes: [PixelRect] = []
        var everything: [UInt8] = []
        for element in snapshot.elements {
            var raw: [UInt8] = []
            for ref in [element.label, element.text, element.value, element.hint, element.placeholder] where !snapshot.texts.isBlank(ref) {
                snapshot.texts.appendBytes(ref, to: &raw)
                raw.append(0x20)
            }
            let words = Self.fold(String(decoding: raw, as: UTF8.self))
            folded.append(words)
            if !words.isEmpty {
                everything += words
                everything.append(0x20)
            }
            boxes.append(element.frame.map { mapping.pixels(of: $0) } ?? PixelRect(x: 0, y: 0, width: 0, height: 0))
        }
        self.folded = folded
        self.boxes = boxes
        self.everything = everything
        appWindows = snapshot.roots.compactMap { root in
            !snapshot.elements[root].isSystemUI && !boxes[root].isEmpty ? boxes[root] : nil
        }
    }

    /// Text folded for comparing OCR with the tree: letters styled with Unicode's look-alikes
    /// read as the letters they show (NFKC's compatibility forms — "𝐓𝐫𝐞𝐧𝐝𝐢𝐧𝐠", full-width
    /// "ｆｕｌｌ" — and the small capitals NFKC leaves alone, "ᴢᴀᴋᴇᴇ"), accents dropped (OCR
    /// reads "é" as "e" as often as not), then ``SpokenWords``' folding with numbers kept.
    static func fold(_ text: String) -> [UInt8] {
        guard !text.unicodeScalars.allSatisfy(\.isASCII) else { return SpokenWords.fold(Array(text.utf8), keepingNumbers: true) }
        var scalars = String.UnicodeScalarView()
        // OCR writes a space between ideographs and kana ("设 置"), which the text does not
        // have (Korean writes spaces between its words: kept).
        let source = Array(text.precomposedStringWithCompatibilityMapping.unicodeScalars)
        for (offset, scalar) in source.enumerated() {
            if scalar.properties.isWhitespace, offset > 0, offset + 1 < source.count,
                !WritingSystems.of(source[offset - 1]).isDisjoint(with: [.han, .kana]),
                !WritingSystems.of(source[offset + 1]).isDisjoint(with: [.han, .kana])
            {
                continue
            }
            scalars.append(smallCapitals[scalar.value].flatMap(Unicode.Scalar.init) ?? scalar)
        }
        let plain = String(scalars).folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        return SpokenWords.fold(Array(plain.utf8), keepingNumbers: true)
    }

    /// The small capitals of the IPA and phonetic blocks that styled names are written in,
    /// with the letter each shows (NFKC has no mapping for them).
    static let smallCapitals: [UInt32: UInt32] = {
        let pairs: [(UInt32, Character)] = [
            (0x1D00, "a"), (0x0299, "b"), (0x1D04, "c"), (0x1D05, "d"), (0x1D07, "e"), (0xA730, "f"), (0x0262, "g"),
            (0x029C, "h"), (0x026A, "i"), (0x1D0A, "j"), (0x1D0B, "k"), (0x029F, "l"), (0x1D0D, "m"), (0x0274, "n"),
            (0x1D0F, "o"), (0x1D18, "p"), (0xA7AF, "q"), (0x0280, "r"), (0xA731, "s"), (0x1D1B, "t"), (0x1D1C, "u"),
            (0x1D20, "v"), (0x1D21, "w"), (0x028F, "y"), (0x1D22, "z"),
        ]
        var table: [UInt32: UInt32] = [:]
        for (scalar, letter) in pairs { table[scalar] = letter.unicodeScalars.first?.value }
        return table
    }()

    /// Whether `box` lies mostly (half its area or more) on the system's UI: the status
    /// and navigation bars, the keyboard, another app's window.
    /// Text outside every window of the app (a status bar the capture did not include,
    /// above an app window that starts below it) is the system's too.
    func isSystemUI(_ box: PixelRect) -> Bool {
        if !appWindows.isEmpty, appWindows.allSatisfy({ overlap($0, box) * 2 < box.area }) { return true }
        return snapshot.elements.indices.contains { index in
            snapshot.elements[index].isSystemUI && overlap(boxes[index], box) * 2 >= box.area
        }
    }

    /// The smallest visible element whose box holds most of `box`, if any.
    func owner(of box: PixelRect) -> Int? {
        var best: Int?
        for index in snapshot.elements.indices where snapshot.elements[index].isVisible && !boxes[index].isEmpty {
            guard overlap(boxes[index], box) * 2 >= box.area else { continue }
            if let current = best, boxes[current].area <= boxes[index].area { continue }
            best = index
        }
        return best
    }

    /// The text element standing where `box` was read: `owner` when it is one, else a
    /// visible text element with text of its own lying mostly inside `box`.
    func textElement(at box: PixelRect, owner: Int?) -> Int? {
        func isText(_ index: Int) -> Bool { snapshot.elements[index].role == .text && !folded[index].isEmpty }
        if let owner, isText(owner) { return owner }
        return snapshot.elements.indices.first { index in
            isText(index) && snapshot.elements[index].isVisible && !boxes[index].isEmpty && overlap(boxes[index], box) * 2 >= boxes[index].area
        }
    }

    /// Words in a type or id that name a picture: a video surface, a thumbnail, a cover.
    static let pictureWords = ["image", "video", "surface", "texture", "player", "thumb", "cover", "banner", "poster", "photo"]

    /// Whether an element holding `index` (itself or an ancestor) is a picture: an image,
    /// or a view whose type or id names a video, a thumbnail or a cover — text in it is
    /// part of the picture.
    func isInPicture(_ index: Int) -> Bool {
        if isFeedPage(index) || isDescribedPicture(index) { return true }
        var current = index
        while current >= 0 {
            let element = snapshot.elements[current]
            if element.role == .image { return true }
            for ref in [element.typeName, element.id] {
                if let name = snapshot.texts.string(ref)?.lowercased(), Self.pictureWords.contains(where: { name.contains($0) }) { return true }
            }
            current = Int(element.parent)
        }
        return false
    }

    /// A page of a feed: a leaf that says nothing, covers 40% of the screen or more and
    /// most of a scroller above it — the surface a video plays on in a pager of full-screen
    /// clips (TikTok's, Reels', Shorts'), whose lettering is the video's. A full-screen leaf
    /// with no scroller above it (a game's canvas) is not one.
    func isFeedPage(_ index: Int) -> Bool {
        let element = snapshot.elements[index]
        let screen = mapping.usable
        guard !boxes[index].isEmpty, folded[index].isEmpty, !element.isInteractive, element.firstChild < 0,
            boxes[index].area * 5 >= screen.area * 2
        else { return false }
        var current = Int(element.parent)
        while current >= 0 {
            if !snapshot.elements[current].scrollAxes.isEmpty { return boxes[index].area * 5 >= boxes[current].area * 3 }
            current = Int(snapshot.elements[current].parent)
        }
        return false
    }

    /// A leaf described and showing no text of its own: what a screen reader says of it is
    /// its description, and what it draws is a picture (Compose's `Image` is a plain `View`
    /// with a content description — a video's thumbnail whose lettering is the video's).
    func isDescribedPicture(_ index: Int) -> Bool {
        let element = snapshot.elements[index]
        return element.firstChild < 0 && !snapshot.texts.isBlank(element.label) && snapshot.texts.isBlank(element.text)
            && [.other, .container, .cell, .image].contains(element.role)
    }

    func overlap(_ a: PixelRect, _ b: PixelRect) -> Int { a.clipped(to: b).area }

    /// Whether the folded `word` is in `text`, exactly or with the letters OCR commonly
    /// gets wrong: one edit in words of five letters or more, two from eight.
    static func contains(_ text: [UInt8], _ word: [UInt8]) -> Bool {
        guard !word.isEmpty else { return false }
        if SpokenWords.contains(text, word) { return true }
        // One OCR word that folds to several ("ZAKEE.OXLOFI"): each part on its own.
        if word.contains(0x20) {
            let parts = word.split(separator: 0x20)
            return parts.count > 1 && parts.allSatisfy { contains(text, Array($0)) }
        }
        // Letters, not bytes: one ideograph read wrong is one edit, not three.
        if word.contains(where: { $0 >= 0x80 }) {
            let letters = Array(String(decoding: word, as: UTF8.self).unicodeScalars).map(\.value)
            let allowed = letters.count >= 8 ? 2 : letters.count >= 4 ? 1 : 0
            guard allowed > 0 else { return false }
            for candidate in text.split(separator: 0x20) {
                let other = Array(String(decoding: candidate, as: UTF8.self).unicodeScalars).map(\.value)
                if abs(other.count - letters.count) <= allowed, editDistance(other, letters, atMost: allowed) <= allowed { return true }
            }
            return false
        }
        let allowed = word.count >= 8 ? 2 : word.count >= 5 ? 1 : 0
        guard allowed > 0 else { return false }
        for candidate in text.split(separator: 0x20) where abs(candidate.count - word.count) <= allowed {
            if editDistance(Array(candidate), word, atMost: allowed) <= allowed { return true }
        }
        return false
    }

    /// Levenshtein distance, given up past `limit` (returns limit + 1).
    static func editDistance<Unit: Equatable>(_ a: [Unit], _ b: [Unit], atMost limit: Int) -> Int {
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(1, a.count) where !a.isEmpty {
            current[0] = i
            var best = current[0]
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                best = min(best, current[j])
            }
            if best > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
