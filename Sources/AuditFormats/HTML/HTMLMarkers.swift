import AuditCore

/// One marker per element on a screen's drawing: the findings on one frame share it, the
/// worst severity sets its shape and colour, and a count says how many ("×5"). Markers are
/// painted notices first and errors last, so an error is never under a notice; a marker
/// whose corner another already holds is moved along the element's top edge and tied to
/// its corner by a leader line.
package struct HTMLMarkers {
    package typealias Numbered = (number: Int, finding: ReportFinding, anchor: String)

    /// The findings on one element, in list order.
    package struct Marker {
        /// `m-` and the anchor of its first finding.
        package let id: String
        package let frame: Rect
        package var findings: [Numbered]
        /// Where its badge's centre is, in the drawing's points.
        package var badge: (x: Double, y: Double) = (0, 0)

        /// The most severe of its findings.
        package var worst: Severity { findings.map(\.finding.severity).max() ?? .notice }
        /// Its severities, least severe first (the order their badges are painted in).
        package var severities: [Severity] {
            Severity.allCases.filter { severity in findings.contains { $0.finding.severity == severity } }.sorted()
        }
    }

    /// In the order they are painted.
    package let markers: [Marker]

    /// The findings of `numbered` grouped by frame, in list order, and each framed
    /// finding's marker id by its anchor (the list links each finding to its marker).
    package static func group(_ numbered: [Numbered]) -> (markers: [Marker], markerOf: [String: String]) {
        var byFrame: [[Double]: Int] = [:]
        var markers: [Marker] = []
        var markerOf: [String: String] = [:]
        for item in numbered {
            guard let frame = item.finding.frame else { continue }
            let key = [frame.x, frame.y, frame.width, frame.height]
            let index = byFrame[key] ?? markers.count
            if index == markers.count {
                byFrame[key] = index
                markers.append(Marker(id: "m-\(item.anchor)", frame: frame, findings: [item]))
            } else {
                markers[index].findings.append(item)
            }
            markerOf[item.anchor] = markers[index].id
        }
        return (markers, markerOf)
    }

    /// Places the badges of `grouped` (``group(_:)``) inside a drawing of `width` ×
    /// `height` with badges of `radius`.
    package init(placing grouped: [Marker], width: Double, height: Double, radius: Double) {
        var markers = grouped
        // Errors last: painted above notices and warnings wherever they meet.
        markers = markers.enumerated().sorted { a, b in
            a.element.worst.rank != b.element.worst.rank ? a.element.worst.rank < b.element.worst.rank : a.offset < b.offset
        }.map(\.element)
        // Each badge at its element's top-left corner, moved right along the top edge (at
        // most 8 steps) while it would cover one already placed; errors are placed first,
        // so they keep their corners. A diamond reaches 1.25 radii from its centre: badges
        // a step apart never touch. Placed badges are kept in a grid of step-sized cells,
        // so a screen of 100,000 markers costs a few lookups each.
        let step = radius * 2.7
        var grid: [Int64: [(x: Double, y: Double)]] = [:]
        func cell(_ x: Double, _ y: Double) -> (Int64, Int64) { (Int64((x / step).rounded(.down)), Int64((y / step).rounded(.down))) }
        func key(_ column: Int64, _ row: Int64) -> Int64 { row &* 1_000_003 &+ column }
        func covers(_ x: Double, _ y: Double) -> Bool {
            let (column, row) = cell(x, y)
            for dy in -1...1 {
                for dx in -1...1 {
                    if grid[key(column + Int64(dx), row + Int64(dy))]?.contains(where: { abs($0.x - x) < step * 0.95 && abs($0.y - y) < step * 0.95 }) == true {
                        return true
                    }
                }
            }
            return false
        }
        for index in markers.indices.reversed() {
            let frame = markers[index].frame
            let clampX = { (x: Double) in min(max(x, radius), width - radius) }
            let y = min(max(frame.y, radius), height - radius)
            var x = clampX(frame.x)
            var moves = 0
            while moves < 8, covers(x, y) {
                x = clampX(x + step)
                moves += 1
            }
            markers[index].badge = (x, y)
            let (column, row) = cell(x, y)
            grid[key(column, row), default: []].append((x, y))
        }
        self.markers = markers
    }
}
