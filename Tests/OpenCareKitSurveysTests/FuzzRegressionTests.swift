import Foundation
import OpenCareKitFuzzTargets
import Testing

/// Every input the fuzzers kept (`Tests/Fuzz/TARGET/`: what once crashed a target, ran too long or took too much
/// memory), and every target's seeds, run through its target again: each must finish, in time.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    /// The kept inputs of `target`.
    static func kept(_ target: FuzzTarget) -> [URL] {
        let directory = folder.appendingPathComponent(target.rawValue)
        return ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    @Test(.timeLimit(.minutes(1)), arguments: FuzzTarget.allCases)
    func keptInputsAndSeedsRunThroughTheirTarget(target: FuzzTarget) throws {
        #expect(FileManager.default.fileExists(atPath: Self.folder.appendingPathComponent("README.md").path))
        let inputs = try Self.kept(target).map { try Data(contentsOf: $0) } + target.seeds
        #expect(!target.seeds.isEmpty)
        for input in inputs {
            let start = ContinuousClock.now
            target.run(input)
            // libFuzzer's limit is 10 s in an optimized build; this is a debug build, so allow it three times that.
            #expect(ContinuousClock.now - start < .seconds(30), "\(target): an input took \(ContinuousClock.now - start)")
        }
    }
}
