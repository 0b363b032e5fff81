import OpenCareKitStore

/// The tests' deterministic generator, so a failing random case can be replayed by seed.
typealias SeededGenerator = SeededRandomNumberGenerator
