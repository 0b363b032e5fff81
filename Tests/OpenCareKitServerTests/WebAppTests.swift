import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
@testable import OpenCareKitServer
import OpenCareKitUI
import Testing

/// The installable app's server side (issue 39, part 1): the manifest, the worker, the icons and the pages' links.
/// Chromium's own verdict (no installability error, the worker in control) is `Tests/Browser/test_install.py`'s.
@Suite struct WebAppTests {
    /// A PNG's chunks, each checked against its CRC.
    static func chunks(_ png: Data) throws -> [(type: String, data: [UInt8])] {
        let bytes = [UInt8](png)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var chunks: [(String, [UInt8])] = []
        var offset = 8
        func word(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        while offset + 12 <= bytes.count {
            let length = word(offset)
            let typed = Array(bytes[(offset + 4)..<(offset + 8 + length)])
            #expect(UInt32(word(offset + 8 + length)) == PNGEncoder.crc32(typed))
            chunks.append((String(decoding: typed.prefix(4), as: UTF8.self), Array(typed.dropFirst(4))))
            offset += 12 + length
        }
        #expect(offset == bytes.count)
        return chunks
    }

    @Test func theIconsArePNGsOfTheirSizesAndSmall() throws {
        for size in AppIcon.sizes {
            for purpose in [AppIcon.Purpose.any, .maskable] {
                let png = try #require(AppIcon.all[AppIcon.path(size: size, purpose: purpose)])
                let chunks = try Self.chunks(png)
                #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
                let header = chunks[0].data
                #expect(header.prefix(8).elementsEqual(PNGEncoder.bigEndian(UInt32(size)) + PNGEncoder.bigEndian(UInt32(size))))
                #expect(Array(header.suffix(5)) == [8, 6, 0, 0, 0])
                // Compressed: the 512 px icon's 1 MB of pixels in a few kilobytes.
                #expect(png.count < size * 60, "\(size) \(purpose): \(png.count) bytes")
            }
        }
    }

    @Test func theMaskableIconKeepsItsHeartInsideTheSafeZone() {
        let size = 192
        for purpose in [AppIcon.Purpose.any, .maskable] {
            let pixels = AppIcon.pixels(size: size, purpose: purpose)
            func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8> { pixels[((y * size + x) * 4)..<((y * size + x) * 4 + 4)] }
            // A corner: see-through on the rounded square, the app's blue to the edge on the maskable one.
            #expect(Array(pixel(0, 0)) == (purpose == .any ? [0, 98, 204, 0] : [0, 98, 204, 255]), "\(purpose)")
            // The heart's middle is white.
            #expect(Array(pixel(size / 2, size / 2)) == [255, 255, 255, 255], "\(purpose)")
            guard purpose == .maskable else { continue }
            // Every pixel of the heart lies inside the central circle of 80% that every mask keeps.
            for y in 0..<size {
                for x in 0..<size where pixel(x, y).first! > 0 {
                    let dx = Double(x) + 0.5 - Double(size) / 2, dy = Double(y) + 0.5 - Double(size) / 2
                    #expect((dx * dx + dy * dy).squareRoot() <= 0.4 * Double(size), "(\(x), \(y))")
                }
            }
        }
    }

    @Test func theManifestAndTheWorkerAreServedAsTheBrowserNeedsThem() async throws {
        let fixture = ServerFixture()
        try await fixture.test { client in
            let manifest = try await client.execute(uri: WebApp.manifestPath, method: .get)
            #expect(manifest.status == .ok && manifest.headers[.contentType] == "application/manifest+json")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: manifest.body)) as? [String: Any])
            #expect(json["display"] as? String == "standalone" && json["start_url"] as? String == "/" && json["scope"] as? String == "/")
            #expect(json["name"] as? String == "OpenCareKit Care" && json["short_name"] as? String == "Care")
            #expect(json["theme_color"] as? String == "#f2f2f7" && json["background_color"] as? String == "#f2f2f7")
            let icons = try #require(json["icons"] as? [[String: String]])
            #expect(Set(icons.map { "\($0["sizes"]!) \($0["purpose"]!)" }) == ["192x192 any", "192x192 maskable", "512x512 any", "512x512 maskable"])
            for icon in icons {
                let response = try await client.execute(uri: try #require(icon["src"]), method: .get)
                #expect(response.status == .ok && response.headers[.contentType] == "image/png")
                #expect(Data(buffer: response.body) == AppIcon.all[icon["src"]!])
            }
            // In the reader's language.
            let korean = try await client.execute(uri: WebApp.manifestPath, method: .get, headers: [.acceptLanguage: "ko-KR,ko;q=0.9"])
            let koreanJSON = try #require(try JSONSerialization.jsonObject(with: Data(buffer: korean.body)) as? [String: Any])
            #expect(koreanJSON["short_name"] as? String == "케어" && koreanJSON["lang"] as? String == "ko")

            let worker = try await client.execute(uri: WebApp.workerPath, method: .get)
            #expect(worker.status == .ok && worker.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(worker.headers[.cacheControl] == "no-cache" && worker.headers[HTTPField.Name("Service-Worker-Allowed")!] == "/")
            let script = String(buffer: worker.body)
            #expect(!script.contains("__OCK_") && script.contains("\"/assets/app.js\"") && script.contains("\"/assets/icon-maskable-512.png\""))

            // Every page links the manifest, the home-screen icon and the bars' colours in light and dark.
            let page = String(buffer: try await client.execute(uri: "/care", method: .get).body)
            #expect(page.contains(#"<link href="/manifest.webmanifest" rel="manifest">"#))
            #expect(page.contains(#"<link href="/assets/icon-maskable-192.png" rel="apple-touch-icon">"#))
            #expect(page.contains(##"<meta content="#f2f2f7" media="(prefers-color-scheme: light)" name="theme-color">"##))
            #expect(page.contains(##"<meta content="#000000" media="(prefers-color-scheme: dark)" name="theme-color">"##))
            #expect(page.contains("data-ock-install"))
        }
    }

    @Test func aNewShellIsANewWorker() {
        let version = WebApp.version(shellTexts: ["body {}", "console.log(1)"])
        #expect(version.count == 16)
        #expect(WebApp.version(shellTexts: ["body {}", "console.log(1)"]) == version)
        #expect(WebApp.version(shellTexts: ["body {}", "console.log(2)"]) != version)
        #expect(WebApp.worker(version: version).contains("var VERSION = \"\(version)\""))
    }
}
