import Foundation
import OpenCareKitFuzzTargets
#if FUZZING
import CLibFuzzer
#endif

/// `opencarekit-fuzz`. Built by scripts/fuzz (OPENCAREKIT_FUZZ=1, linked with libFuzzer), it is libFuzzer with its
/// usual options, fuzzing the target named by $OPENCAREKIT_FUZZ_TARGET. Otherwise `opencarekit-fuzz TARGET FILE…`
/// runs each file through the target once (a crash reproduces), and `opencarekit-fuzz seeds DIR` writes each
/// target's seeds into DIR/TARGET/.
@main
struct OpenCareKitFuzz {
    static func main() throws {
        #if FUZZING
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
            let target = ProcessInfo.processInfo.environment["OPENCAREKIT_FUZZ_TARGET"].flatMap(FuzzTarget.init(rawValue:)) ?? .entities
            target.run(bytes.map { Data(bytes: $0, count: count) } ?? Data())
            return 0
        })
        #else
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "seeds", arguments.count == 2 {
            for target in FuzzTarget.allCases {
                let directory = URL(fileURLWithPath: arguments[1]).appendingPathComponent(target.rawValue)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for (index, seed) in target.seeds.enumerated() {
                    try seed.write(to: directory.appendingPathComponent("seed-\(index)"))
                }
            }
            return
        }
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("usage: opencarekit-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) FILE… | seeds DIR\n".utf8))
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("opencarekit-fuzz: cannot read \(path)\n".utf8))
                exit(1)
            }
            target.run(data)
        }
        print("ran \(arguments.count - 1) inputs through \(target.rawValue)")
        #endif
    }
}
