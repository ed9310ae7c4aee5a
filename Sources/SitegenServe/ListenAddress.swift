import Foundation

/// Where `sitegen serve` listens: a numeric IPv4 or IPv6 address (or `localhost`) and a port.
public struct ListenAddress: Equatable, Sendable {
    public enum Family: Sendable { case ipv4, ipv6 }

    public let host: String
    public let family: Family
    /// 0 asks the system for a free port.
    public let port: UInt16

    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Host names other than `localhost` are refused: resolving one could bind to an
    /// interface the user did not mean to expose.
    public init(host: String, port: UInt16) throws(Invalid) {
        let numeric = host.lowercased() == "localhost" ? "127.0.0.1" : host
        let bare = numeric.hasPrefix("[") && numeric.hasSuffix("]") ? String(numeric.dropFirst().dropLast()) : numeric
        if Self.parses(bare, family: AF_INET) {
            family = .ipv4
        } else if Self.parses(bare, family: AF_INET6) {
            family = .ipv6
        } else {
            throw Invalid(description: "--host must be a numeric IP address such as 127.0.0.1, ::1 or 0.0.0.0, found \"\(host)\"")
        }
        self.host = bare
        self.port = port
    }

    /// Loopback addresses are reachable only from this machine.
    public var isLoopback: Bool {
        switch family {
        case .ipv4: return host.hasPrefix("127.")
        case .ipv6: return Self.bytes(of: host) == Array(repeating: 0, count: 15) + [1]
        }
    }

    /// `0.0.0.0` and `::` listen on every interface.
    public var isEveryInterface: Bool {
        switch family {
        case .ipv4: return host == "0.0.0.0"
        case .ipv6: return Self.bytes(of: host) == Array(repeating: 0, count: 16)
        }
    }

    /// The address as it appears in a URL's authority.
    public var urlHost: String {
        family == .ipv6 ? "[\(host)]" : host
    }

    public func url(port actualPort: UInt16) -> String {
        "http://\(urlHost):\(actualPort)/"
    }

    static func parses(_ text: String, family: Int32) -> Bool {
        var storage = in6_addr()
        return text.withCString { inet_pton(family, $0, &storage) } == 1
    }

    static func bytes(of ipv6: String) -> [UInt8] {
        var address = in6_addr()
        guard ipv6.withCString({ inet_pton(AF_INET6, $0, &address) }) == 1 else { return [] }
        return withUnsafeBytes(of: &address) { Array($0) }
    }
}
