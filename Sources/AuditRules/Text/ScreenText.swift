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
    }

    /// Text folded for comparing OCR with the tree: accents dropped (OCR reads "é" as "e"
    /// as often as not), then ``SpokenWords``' folding with numbers kept.
    static func fold(_ text: String) -> [UInt8] {
        let plain = text.unicodeScalars.allSatisfy(\.isASCII) ? text : text.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        return SpokenWords.fold(Array(plain.utf8), keepingNumbers: true)
    }

    /// Whether `box` lies mostly (half its area or more) on the system's UI: the status
    /// and navigation bars, the keyboard, another app's window.
    func isSystemUI(_ box: PixelRect) -> Bool {
        snapshot.elements.indices.contains { index in
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

    /// Words in a type or id that name a picture: a video surface, a thumbnail, a cover.
    static let pictureWords = ["image", "video", "surface", "texture", "player", "thumb", "cover", "banner", "poster", "photo"]

    /// Whether an element holding `index` (itself or an ancestor) is a picture: an image,
    /// or a view whose type or id names a video, a thumbnail or a cover — text in it is
    /// part of the picture.
    func isInPicture(_ index: Int) -> Bool {
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

    func overlap(_ a: PixelRect, _ b: PixelRect) -> Int { a.clipped(to: b).area }

    /// Whether the folded `word` is in `text`, exactly or with the letters OCR commonly
    /// gets wrong: one edit in words of five letters or more, two from eight.
    static func contains(_ text: [UInt8], _ word: [UInt8]) -> Bool {
        guard !word.isEmpty else { return false }
        if SpokenWords.contains(text, word) { return true }
        let allowed = word.count >= 8 ? 2 : word.count >= 5 ? 1 : 0
        guard allowed > 0 else { return false }
        for candidate in text.split(separator: 0x20) where abs(candidate.count - word.count) <= allowed {
            if editDistance(Array(candidate), word, atMost: allowed) <= allowed { return true }
        }
        return false
    }

    /// Levenshtein distance, given up past `limit` (returns limit + 1).
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int {
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
