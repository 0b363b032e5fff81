import OpenCareKitUI

/// A QR code (ISO/IEC 18004) of up to 213 bytes: byte mode, error correction level M, versions 1 to 10, the mask with
/// the lowest penalty. Enough for an authenticator app's `otpauth://` address; drawn as SVG.
///
/// For example:
/// ```swift
/// let code = try QRCode("otpauth://totp/OpenCareKit:ana%40example.org?secret=…&issuer=OpenCareKit")
/// let image: HTML = code.svg(label: "QR code for your authenticator app")
/// ```
struct QRCode: Sendable {
    struct TooLong: Error {}

    /// Dark modules, row by row.
    let modules: [[Bool]]
    var size: Int { modules.count }

    /// Per version (index 1…10) at level M: (EC codewords per block, [(blocks, data codewords per block)]).
    static let blocks: [(ec: Int, groups: [(count: Int, data: Int)])] = [
        (0, []), (10, [(1, 16)]), (16, [(1, 28)]), (26, [(1, 44)]), (18, [(2, 32)]), (24, [(2, 43)]), (16, [(4, 27)]),
        (18, [(4, 31)]), (22, [(2, 38), (2, 39)]), (22, [(3, 36), (2, 37)]), (26, [(4, 43), (1, 44)]),
    ]
    static let alignment: [[Int]] = [[], [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]]

    init(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard let version = (1...10).first(where: { version in
            let capacity = Self.blocks[version].groups.reduce(0) { $0 + $1.count * $1.data }
            return 4 + (version < 10 ? 8 : 16) + 8 * bytes.count <= 8 * capacity
        }) else { throw TooLong() }
        let codewords = Self.codewords(bytes, version: version)
        var best: [[Bool]] = []
        var bestPenalty = Int.max
        for mask in 0..<8 {
            var matrix = Matrix(version: version)
            matrix.place(codewords)
            matrix.apply(mask: mask)
            matrix.placeFormat(mask: mask)
            let penalty = matrix.penalty()
            if penalty < bestPenalty { (best, bestPenalty) = (matrix.dark, penalty) }
        }
        modules = best
    }

    /// The data bits, padded, split into blocks with their Reed-Solomon codewords, interleaved.
    static func codewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        let (ecCount, groups) = blocks[version]
        let capacity = groups.reduce(0) { $0 + $1.count * $1.data }
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) { for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) } }
        append(0b0100, 4)
        append(bytes.count, version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        append(0, min(4, 8 * capacity - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var data = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: [UInt8] = [0xEC, 0x11]
        while data.count < capacity {
            data.append(pad[0])
            pad.swapAt(0, 1)
        }
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for group in groups {
            for _ in 0..<group.count {
                dataBlocks.append(Array(data[offset..<offset + group.data]))
                offset += group.data
            }
        }
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, count: ecCount) }
        var result: [UInt8] = []
        for index in 0..<(dataBlocks.map(\.count).max() ?? 0) {
            for block in dataBlocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<ecCount {
            for block in ecBlocks { result.append(block[index]) }
        }
        return result
    }

    /// The code as an SVG image with a quiet zone of 4 modules, dark on white whatever the page's colours.
    func svg(label: String, pixelsPerModule: Int = 5) -> HTML {
        let side = size + 8
        var path = ""
        for (row, line) in modules.enumerated() {
            for (column, dark) in line.enumerated() where dark {
                path += "M\(column + 4) \(row + 4)h1v1h-1z"
            }
        }
        return .element("svg", [
            "xmlns": "http://www.w3.org/2000/svg", "role": "img", "aria-label": label, "class": "ock-qr-code",
            "width": String(side * pixelsPerModule), "height": String(side * pixelsPerModule), "viewBox": "0 0 \(side) \(side)",
            "shape-rendering": "crispEdges",
        ], [
            .element("rect", ["width": String(side), "height": String(side), "fill": "#fff"], []),
            .element("path", ["fill": "#000", "d": path], []),
        ])
    }
}

/// The module grid while a code is drawn: which modules are dark, and which belong to function patterns.
private struct Matrix {
    let version: Int
    let size: Int
    var dark: [[Bool]]
    var reserved: [[Bool]]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        dark = Array(repeating: Array(repeating: false, count: size), count: size)
        reserved = dark
        for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] { finder(row, column) }
        for index in 8..<(size - 8) {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        let centres = QRCode.alignment[version]
        for row in centres {
            for column in centres {
                // Not where a finder pattern is.
                let (first, last) = (centres.first, centres.last)
                if (row == first && column == first) || (row == first && column == last) || (row == last && column == first) { continue }
                alignment(row, column)
            }
        }
        // The format areas, and the dark module.
        for index in 0..<9 {
            reserved[8][index] = true
            reserved[index][8] = true
        }
        for index in 0..<8 {
            reserved[8][size - 1 - index] = true
            reserved[size - 1 - index][8] = true
        }
        set(size - 8, 8, true)
        if version >= 7 { placeVersion() }
    }

    mutating func set(_ row: Int, _ column: Int, _ value: Bool) {
        dark[row][column] = value
        reserved[row][column] = true
    }

    mutating func finder(_ top: Int, _ left: Int) {
        for row in -1...7 {
            for column in -1...7 {
                let (r, c) = (top + row, left + column)
                guard (0..<size).contains(r), (0..<size).contains(c) else { continue }
                let ring = max(abs(row - 3), abs(column - 3))
                set(r, c, ring != 2 && ring != 4)
            }
        }
    }

    mutating func alignment(_ centreRow: Int, _ centreColumn: Int) {
        for row in -2...2 {
            for column in -2...2 { set(centreRow + row, centreColumn + column, max(abs(row), abs(column)) != 1) }
        }
    }

    mutating func placeVersion() {
        var bits = version << 12
        for shift in stride(from: 17, through: 12, by: -1) where bits >> shift & 1 == 1 { bits ^= 0x1F25 << (shift - 12) }
        let word = version << 12 | bits
        for index in 0..<18 {
            let bit = word >> index & 1 == 1
            let (a, b) = (index / 3, size - 11 + index % 3)
            set(a, b, bit)
            set(b, a, bit)
        }
    }

    /// Codewords in the zigzag order, two columns at a time from the right, skipping the timing column.
    mutating func place(_ codewords: [UInt8]) {
        var bitIndex = 0
        let total = codewords.count * 8
        var upward = true
        var right = size - 1
        while right > 0 {
            if right == 6 { right -= 1 }
            for step in 0..<size {
                let row = upward ? size - 1 - step : step
                for column in [right, right - 1] where !reserved[row][column] {
                    if bitIndex < total {
                        dark[row][column] = codewords[bitIndex / 8] >> (7 - bitIndex % 8) & 1 == 1
                    }
                    bitIndex += 1
                }
            }
            upward.toggle()
            right -= 2
        }
    }

    mutating func apply(mask: Int) {
        for row in 0..<size {
            for column in 0..<size where !reserved[row][column] {
                let flip = switch mask {
                case 0: (row + column) % 2 == 0
                case 1: row % 2 == 0
                case 2: column % 3 == 0
                case 3: (row + column) % 3 == 0
                case 4: (row / 2 + column / 3) % 2 == 0
                case 5: (row * column) % 2 + (row * column) % 3 == 0
                case 6: ((row * column) % 2 + (row * column) % 3) % 2 == 0
                default: ((row + column) % 2 + (row * column) % 3) % 2 == 0
                }
                if flip { dark[row][column].toggle() }
            }
        }
    }

    /// Level M (00) and the mask, BCH-protected and masked with 0x5412, in both copies.
    mutating func placeFormat(mask: Int) {
        let data = mask  // level M's two bits are 00
        var bits = data << 10
        for shift in stride(from: 14, through: 10, by: -1) where bits >> shift & 1 == 1 { bits ^= 0x537 << (shift - 10) }
        let word = (data << 10 | bits) ^ 0x5412
        func bit(_ index: Int) -> Bool { word >> index & 1 == 1 }
        for index in 0..<15 {
            // Around the top-left finder.
            let (row, column): (Int, Int) = index < 6 ? (index, 8) : index < 8 ? (index + 1, 8) : index == 8 ? (8, 7) : (8, 14 - index)
            dark[row][column] = bit(index)
            // Beside the other two finders.
            let (row2, column2) = index < 8 ? (8, size - 1 - index) : (size - 15 + index, 8)
            dark[row2][column2] = bit(index)
        }
        dark[size - 8][8] = true
    }

    /// The standard's penalty: runs, 2×2 blocks, finder-like patterns and the balance of dark and light.
    func penalty() -> Int {
        var score = 0
        for line in 0..<size {
            for horizontal in [true, false] {
                var run = 1
                var modules: [Bool] = []
                for index in 0..<size {
                    let value = horizontal ? dark[line][index] : dark[index][line]
                    modules.append(value)
                    if index > 0 {
                        if value == modules[index - 1] { run += 1 } else { run = 1 }
                        if run == 5 { score += 3 } else if run > 5 { score += 1 }
                    }
                }
                let pattern: [Bool] = [true, false, true, true, true, false, true]
                for index in 0...(size - 7) where Array(modules[index..<index + 7]) == pattern {
                    let before = index >= 4 && modules[(index - 4)..<index].allSatisfy { !$0 }
                    let after = index + 11 <= size && modules[(index + 7)..<(index + 11)].allSatisfy { !$0 }
                    if before || after { score += 40 }
                }
            }
        }
        for row in 0..<(size - 1) {
            for column in 0..<(size - 1) {
                let value = dark[row][column]
                if dark[row][column + 1] == value, dark[row + 1][column] == value, dark[row + 1][column + 1] == value { score += 3 }
            }
        }
        let darkCount = dark.reduce(0) { $0 + $1.filter { $0 }.count }
        score += abs(darkCount * 20 - size * size * 10) / (size * size) * 10
        return score
    }
}

/// Reed-Solomon error correction over GF(256) with QR's polynomial, x⁸ + x⁴ + x³ + x² + 1.
private enum ReedSolomon {
    static let tables: (exp: [UInt8], log: [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512), log = [Int](repeating: 0, count: 256)
        var value = 1
        for index in 0..<255 {
            exp[index] = UInt8(value)
            log[value] = index
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for index in 255..<512 { exp[index] = exp[index - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : tables.exp[tables.log[Int(a)] + tables.log[Int(b)]]
    }

    /// The generator polynomial of degree `count` (coefficients from the highest power, leading 1 left out).
    static func generator(_ count: Int) -> [UInt8] {
        var polynomial: [UInt8] = [1]
        for index in 0..<count {
            var next = [UInt8](repeating: 0, count: polynomial.count + 1)
            for (position, coefficient) in polynomial.enumerated() {
                next[position] ^= coefficient
                next[position + 1] ^= multiply(coefficient, tables.exp[index])
            }
            polynomial = next
        }
        return Array(polynomial.dropFirst())
    }

    /// The `count` error-correction codewords of `data`.
    static func remainder(_ data: [UInt8], count: Int) -> [UInt8] {
        let generator = generator(count)
        var remainder = [UInt8](repeating: 0, count: count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in 0..<count { remainder[index] ^= multiply(generator[index], factor) }
        }
        return remainder
    }
}
