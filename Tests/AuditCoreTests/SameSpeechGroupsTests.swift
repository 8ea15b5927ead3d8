@testable import AuditCore
@testable import AuditRules
import XCTest

/// `screen-reader.same-speech` groups its stops by parent and speech without hashing
/// either in a dictionary: the groups are those a dictionary by parent and speech makes.
final class SameSpeechGroupsTests: XCTestCase {
    func testGroupsAreThoseOfADictionaryByParentAndSpeech() throws {
        var random = SeededGenerator()
        let seed = random.seed
        let words = ["Review", "Study", "Backup", "Pay", "Details", ""]
        var groupCount = 0
        for round in 0..<20 {
            // Lists of rows under a few parents, nested now and then, saying a few words:
            // parents of one stop, of none, and of hundreds; rows with nothing to say.
            var markup = ""
            var count = 0
            for list in 0..<(1 + random.below(6)) {
                markup += #"<element id="l\#(list)" role="container" frame="0,0,390,800">"#
                for _ in 0..<random.below(list == 0 ? 300 : 12) {
                    let label = words[random.below(words.count)]
                    if random.below(8) == 0 {
                        markup +=
                            #"<element role="cell" frame="0,\#(count),390,40"><element id="e\#(count)" role="button" label="\#(label)" frame="0,\#(count),390,40"/></element>"#
                    } else {
                        markup += #"<element id="e\#(count)" role="button" label="\#(label)" frame="0,\#(count),390,40"/>"#
                    }
                    count += 1
                }
                markup += "</element>"
            }
            let snapshot = try TestSupport.parse(TestSupport.native(markup))
            let stops = Transcript.of(snapshot).stops
            // The reference: a dictionary by parent and speech, in the order of first stops.
            var reference: [String: [Int]] = [:]
            var order: [String] = []
            for position in stops.indices where !stops[position].speech.isEmpty {
                let key = "\(snapshot.elements[stops[position].element].parent)|\(stops[position].speech)"
                if reference[key] == nil { order.append(key) }
                reference[key, default: []].append(position)
            }
            let expected = order.compactMap { reference[$0] }.filter { $0.count > 1 }
            let groups = SameSpeechRule.groupsSayingAlike(stops, elements: snapshot.elements)
            XCTAssertEqual(groups, expected, "seed \(seed) round \(round)")
            groupCount += expected.count
        }
        XCTAssertGreaterThan(groupCount, 20, "seed \(seed): the rounds have groups to find")
    }
}
