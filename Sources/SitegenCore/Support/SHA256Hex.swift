import Crypto
import Foundation

/// Lower-case hex SHA-256, as manifest.json and the build state record input files.
package func sha256Hex<D: DataProtocol>(_ data: D) -> String {
    let hexDigits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(64)
    for byte in SHA256.hash(data: data) {
        hex.append(hexDigits[Int(byte >> 4)])
        hex.append(hexDigits[Int(byte & 0x0F)])
    }
    return String(decoding: hex, as: UTF8.self)
}
