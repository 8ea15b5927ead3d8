import Dispatch
import Foundation

/// Readings of many elements' pixels at once, spread over the cores: each reading is a pure
/// function of the immutable snapshot and screenshot, and reading pixels is most of an
/// audit that has a screenshot. Results come back by element, in any order of work.
package enum PixelReadings {
    /// Below this many elements one thread does it (the hand-off costs more than it saves).
    static let concurrentFrom = 16

    package static func read<Value: Sendable>(
        _ elements: [Int], budget: AuditBudget,
        _ reading: @Sendable @escaping (Int) -> Value
    ) -> [Int: Value] {
        guard elements.count >= concurrentFrom else {
            var values: [Int: Value] = [:]
            for element in elements where !budget.isExhausted { values[element] = reading(element) }
            return values
        }
        let chunks = min(elements.count, 4 * max(1, ProcessInfo.processInfo.activeProcessorCount))
        let slots = ResultSlots<[(Int, Value)]>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var values: [(Int, Value)] = []
            var position = chunk
            while position < elements.count, !budget.isExhausted {
                values.append((elements[position], reading(elements[position])))
                position += chunks
            }
            slots.store(chunk, values)
        }
        var values: [Int: Value] = [:]
        for chunk in 0..<chunks { for (element, value) in slots.take(chunk) { values[element] = value } }
        return values
    }
}
