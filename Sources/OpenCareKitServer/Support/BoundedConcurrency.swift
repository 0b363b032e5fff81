/// `body` for each of `items`, at most `limit` at once; the results in the order they ended. (The clinician's home
/// makes summaries so, and the triage sweep raises records' alerts: a few stores open at a time, however many records.)
func concurrently<Item: Sendable, Result: Sendable>(_ items: [Item], limit: Int,
                                                   _ body: @escaping @Sendable (Item) async -> Result) async -> [Result] {
    await withTaskGroup(of: Result.self) { group in
        var next = items.makeIterator()
        func addNext() -> Bool {
            guard let item = next.next() else { return false }
            group.addTask { await body(item) }
            return true
        }
        for _ in 0..<max(limit, 1) where !addNext() { break }
        var results: [Result] = []
        results.reserveCapacity(items.count)
        while let result = await group.next() {
            results.append(result)
            _ = addNext()
        }
        return results
    }
}
