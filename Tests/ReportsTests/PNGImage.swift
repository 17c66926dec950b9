import Foundation

/// Just enough of a PNG decoder to judge a screenshot: the IHDR size and the 8-bit RGB/RGBA pixels.
///
/// zlib is not a module of this package, so the IDAT stream is inflated by `python3`'s zlib (present
/// on every machine of the project); the scanline filters (PNG spec §9) are undone here.
struct PNGImage {
    enum Failure: Error, CustomStringConvertible {
        case notPNG, truncated
        case unsupported(String)
        case inflate(String)
        var description: String {
            switch self {
            case .notPNG: "not a PNG (bad signature)"
            case .truncated: "truncated PNG"
            case .unsupported(let what): "unsupported PNG: \(what)"
            case .inflate(let why): "cannot inflate IDAT: \(why)"
            }
        }
    }

    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: Int
    /// The compressed image data (all IDAT chunks joined).
    var idat: [UInt8]

    /// Reads the chunks of `data`.
    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count > 33, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Failure.notPNG
        }
        func uint32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8
        var header: (Int, Int, Int, Int)?
        var idat: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = uint32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= bytes.count else { throw Failure.truncated }
            let body = offset + 8
            if type == "IHDR" { header = (uint32(body), uint32(body + 4), Int(bytes[body + 8]), Int(bytes[body + 9])) }
            if type == "IDAT" { idat += bytes[body..<body + length] }
            if type == "IEND" { break }
            offset = body + length + 4
        }
        guard let header else { throw Failure.truncated }
        (width, height, bitDepth, colorType) = header
        self.idat = idat
    }

    /// Gray levels (0…255, Rec 601 luma) of every pixel, row by row.
    func luma() throws -> [UInt8] {
        guard bitDepth == 8, colorType == 2 || colorType == 6 else {
            throw Failure.unsupported("bit depth \(bitDepth), colour type \(colorType)")
        }
        let raw = try Self.inflate(idat)
        let channels = colorType == 6 ? 4 : 3
        let stride = width * channels
        guard raw.count >= height * (stride + 1) else { throw Failure.truncated }
        var previous = [UInt8](repeating: 0, count: stride)
        var current = [UInt8](repeating: 0, count: stride)
        var out = [UInt8]()
        out.reserveCapacity(width * height)
        for row in 0..<height {
            let start = row * (stride + 1)
            let filter = raw[start]
            for i in 0..<stride {
                let x = raw[start + 1 + i]
                let a = i >= channels ? Int(current[i - channels]) : 0
                let b = Int(previous[i])
                let c = i >= channels ? Int(previous[i - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw Failure.unsupported("filter \(filter) on row \(row)")
                }
                current[i] = x &+ UInt8(truncatingIfNeeded: predictor)
            }
            for pixel in 0..<width {
                let r = Int(current[pixel * channels])
                let g = Int(current[pixel * channels + 1])
                let b = Int(current[pixel * channels + 2])
                out.append(UInt8((299 * r + 587 * g + 114 * b) / 1000))
            }
            swap(&previous, &current)
        }
        return out
    }

    private static func inflate(_ compressed: [UInt8]) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("idat.z")
        let output = folder.appendingPathComponent("raw")
        try Data(compressed).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import sys, zlib; open(sys.argv[2], 'wb').write(zlib.decompress(open(sys.argv[1], 'rb').read()))",
            input.path, output.path,
        ]
        let errors = Pipe()
        process.standardError = errors
        do { try process.run() } catch { throw Failure.inflate("cannot start python3: \(error)") }
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure.inflate(
                "python3 exit \(process.terminationStatus): " + String(decoding: message, as: UTF8.self))
        }
        return [UInt8](try Data(contentsOf: output))
    }
}
