import Foundation

/// Items by date, earliest first: a binary heap of (date, item) pairs, so sifting moves small values when the items
/// are (an index's slots, for one).
package struct DateHeap<Element: Sendable>: Sendable {
    private var items: [(date: Double, element: Element)] = []

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
            let parent = (child - 1) / 2
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

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left].date < items[smallest].date { smallest = left }
            if right < items.count, items[right].date < items[smallest].date { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }

    /// Removes the items `shouldRemove` picks.
    package mutating func removeAll(where shouldRemove: (Element) -> Bool) {
        items.removeAll { shouldRemove($0.element) }
        for index in stride(from: items.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }
}
