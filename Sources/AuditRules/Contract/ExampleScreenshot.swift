/// A screenshot for a rule example, painted from rectangles: a background and shapes in
/// points, drawn at `scale` pixels per point over the example's screen. Pixel rules'
/// examples then test the path real captures take (colours read from pixels), not only
/// declared colours.
public struct ExampleScreenshot: Sendable, CustomStringConvertible {
    public struct Shape: Sendable {
        public var frame: Rect
        public var color: RGBA

        public init(_ frame: Rect, _ color: RGBA) {
            self.frame = frame
            self.color = color
        }
    }

    /// A line OCR reads on the example's screen: its words, the line's frame in points
    /// (the words share it in proportion to their lengths) and the engine's confidence.
    public struct ReadLine: Sendable {
        public var text: String
        public var frame: Rect
        public var confidence: Double

        public init(_ text: String, _ frame: Rect, confidence: Double = 95) {
            self.text = text
            self.frame = frame
            self.confidence = confidence
        }
    }

    public var scale: Double
    public var background: RGBA
    public var shapes: [Shape]
    /// What OCR reads on it, for the `text.*` rules' examples (which test the comparison
    /// with the tree; the engine itself is tested on real images); nil when not read.
    public var read: [ReadLine]?

    public init(scale: Double = 2, background: RGBA, _ shapes: [Shape], read: [ReadLine]? = nil) {
        self.scale = scale
        self.background = background
        self.shapes = shapes
        self.read = read
    }

    /// `background` then each shape as `frame colour`, at `scale` (for docs and keys).
    public var description: String {
        "\(scale.formattedForReport)x on \(background.hex): " + shapes.map { "\($0.frame) \($0.color.hex)" }.joined(separator: ", ")
            + (read.map { lines in "; OCR reads " + lines.map { "\"\($0.text)\" at \($0.frame)" }.joined(separator: ", ") } ?? "")
    }

    /// What OCR reads, in the image's pixels; nil when the example is not read.
    public var recognition: TextRecognition? {
        guard let read else { return nil }
        let lines = read.map { line -> TextRecognition.Line in
            let pieces = line.text.split(separator: " ").map(String.init)
            let letters = max(1, pieces.reduce(0) { $0 + $1.count })
            var x = line.frame.x
            let words = pieces.map { piece -> TextRecognition.Word in
                let width = line.frame.width * Double(piece.count) / Double(letters)
                defer { x += width }
                return TextRecognition.Word(
                    text: piece, confidence: line.confidence,
                    box: PixelRect(x: Int(x * scale), y: Int(line.frame.y * scale), width: Int(width * scale), height: Int(line.frame.height * scale)))
            }
            return TextRecognition.Line(
                words: words,
                box: PixelRect(x: Int(line.frame.x * scale), y: Int(line.frame.y * scale), width: Int(line.frame.width * scale), height: Int(line.frame.height * scale)))
        }
        return TextRecognition(lines: lines, languages: "eng", incomplete: nil, milliseconds: 0)
    }

    /// The image of a `width` × `height` pt screen (later shapes over earlier ones).
    public func image(width: Double, height: Double) -> Screenshot {
        let pixelWidth = max(1, Int((width * scale).rounded())), pixelHeight = max(1, Int((height * scale).rounded()))
        var rgba = [UInt8](repeating: 0, count: pixelWidth * pixelHeight * 4)
        func fill(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, _ color: RGBA) {
            let minX = max(0, x0), maxX = min(pixelWidth, x1), minY = max(0, y0), maxY = min(pixelHeight, y1)
            guard minX < maxX, minY < maxY else { return }
            for y in minY..<maxY {
                var offset = (y * pixelWidth + minX) * 4
                for _ in minX..<maxX {
                    rgba[offset] = color.red
                    rgba[offset + 1] = color.green
                    rgba[offset + 2] = color.blue
                    rgba[offset + 3] = 255
                    offset += 4
                }
            }
        }
        fill(0, 0, pixelWidth, pixelHeight, background)
        for shape in shapes {
            let frame = shape.frame
            fill(
                Int((frame.minX * scale).rounded()), Int((frame.minY * scale).rounded()),
                Int((frame.maxX * scale).rounded()), Int((frame.maxY * scale).rounded()), shape.color)
        }
        return Screenshot(width: pixelWidth, height: pixelHeight, format: .png, rgba: rgba)
    }
}
