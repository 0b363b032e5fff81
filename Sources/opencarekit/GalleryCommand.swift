import ArgumentParser
import Foundation
import OpenCareKitUI

/// `opencarekit gallery --output DIR`: writes OpenCareKitUI's static gallery.
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Write a static gallery of every OpenCareKitUI component, in English and Korean, light and dark.")

    @Option(name: .shortAndLong, help: "The directory to write the pages to (created if missing).")
    var output: String

    func run() throws {
        let directory = URL(fileURLWithPath: output, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var files = OCKGallery.assets
            files["index.html"] = OCKGallery.index()
            for gallery in OCKGallery.all { files[gallery.fileName] = gallery.page() }
            for (name, contents) in files.sorted(by: { $0.key < $1.key }) {
                try Data(contents.utf8).write(to: directory.appendingPathComponent(name), options: .atomic)
            }
            print("Wrote \(files.count) files to \(directory.path); open \(directory.appendingPathComponent("index.html").path)")
        } catch {
            throw ValidationError("cannot write the gallery to \(output): \((error as NSError).localizedFailureReason ?? "write failed")")
        }
    }
}
