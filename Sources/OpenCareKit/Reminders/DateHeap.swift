import Foundation

/// Items by date, earliest first: a heap of (date, item) pairs, so sifting moves small values when the items are
/// (an index's slots, for one). Each node has four children: half the levels of a binary heap, and with 16-byte
/// pairs a node's children share one cache line, which is what taking many items from a large heap costs.
package struct DateHeap<Element: Sendable>: Sendable {
    private var items: [(date: Double, element: Element)] = []
    private static var arity: Int { 4 }

    package init() {}

    package var count: Int { items.count }
    /// The earliest item and its date.
    package var minimum: (date: Date, element: Element)? {
        items.first.map { (Date(timeIntervalSinceReferenceDate: $0.date), $0.element) }
    }

    package mutating func push(_ element: Element, at date: Date) {
        items.append((date.timeIntervalSinceReferenceDate, element))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / Self.arity
            guard items[child].date < items[parent].date else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest item (the heap must not be empty).
    package mutating func popMinimum() -> Element {
        let minimum = items[0].element
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            siftDown(0)
        }
        return minimum
    }

    /// Removes the items `shouldRemove` picks.
    package mutating func removeAll(where shouldRemove: (Element) -> Bool) {
        items.removeAll { shouldRemove($0.element) }
        guard items.count > 1 else { return }
        for index in stride(from: (items.count - 2) / Self.arity, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let count = items.count
        while true {
            let first = Self.arity * parent + 1
            guard first < count else { return }
            var smallest = parent
            var smallestDate = items[parent].date
            for child in first..<min(first + Self.arity, count) where items[child].date < smallestDate {
                smallest = child
                smallestDate = items[child].date
            }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
