/// The packages of an Android dump's nodes, counted while parsing: the app is the package
/// most nodes belong to — the app's window — not merely the first node's (a floating window
/// of another app, a chat head, may come first). Nodes of other packages are not the app's.
struct PackageTally {
    private var numbers: [String: Int32] = [:]
    private(set) var names: [String] = []
    private var counts: [Int] = []
    /// Package number by element index, -1 where the node named none (or the system's).
    private var ofElement: [Int32] = []

    /// The number of `package`, given it the first time.
    mutating func number(of package: String) -> Int32 {
        if let known = numbers[package] { return known }
        let number = Int32(names.count)
        numbers[package] = number
        names.append(package)
        counts.append(0)
        return number
    }

    /// Records that element `index` belongs to the package numbered `number` (``number(of:)``).
    mutating func record(_ number: Int32, element index: Int) {
        counts[Int(number)] += 1
        if ofElement.count <= index { ofElement.append(contentsOf: repeatElement(-1, count: index + 1 - ofElement.count)) }
        ofElement[index] = number
    }

    /// The package with the most nodes (the first seen among equals), `nil` without one.
    var app: String? {
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }) else { return nil }
        return names[best]
    }

    /// The elements whose package is another than `app`.
    func elements(notOf app: String) -> [Int] {
        guard let number = numbers[app] else { return [] }
        return ofElement.indices.filter { ofElement[$0] >= 0 && ofElement[$0] != number }
    }
}
