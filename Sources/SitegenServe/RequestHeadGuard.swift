import NIOCore

/// The bounds `sitegen serve` puts on what a client may send and how long it may take.
public struct RequestLimits: Sendable {
    /// Longest request line (`GET /path HTTP/1.1`); longer gets 414. Browsers cap URLs near 2 KB.
    public var requestLine = 8 * 1024
    /// Largest header section after the request line; larger gets 431.
    public var headers = 32 * 1024
    /// Time a client has to send a whole request head; slower gets 408 (a slow-header client
    /// must not hold a connection slot for ever; a browser sends its head in one packet).
    public var headTimeout: TimeAmount = .seconds(5)
    /// Time a kept-alive connection may sit between requests before it is closed.
    public var idleTimeout: TimeAmount = .seconds(30)
    /// Connections served at once; further clients wait in the listen backlog (the listener
    /// stays open, and they are accepted as others close). Each costs a few KB; the number
    /// is kept under the usual 1024 open files.
    public var connections = 512
    /// How long a refused client may keep sending before its connection is closed for good.
    public var lingerAfterRefusal: TimeAmount = .seconds(2)

    public init() {}
}

/// Counts the bytes of each request head as they arrive, before the HTTP parser sees them, and
/// answers 414, 431 or 408 itself when a head is too long or too slow.
///
/// Placed first in the connection's pipeline. NIO's parser would stop at its own limit with a
/// plain 400; these answers tell the client which limit it hit. The scan is one pass over each
/// byte, so a long request costs time linear in its length and memory bounded by the limits.
final class RequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    enum Phase: Equatable {
        /// Reading the request line; `started` once a byte other than an empty line's arrived.
        case requestLine(length: Int, started: Bool)
        /// `lineStart`: the current line's first bytes, lower-cased, to spot body-framing headers.
        case headers(total: Int, lineLength: Int, lineStart: [UInt8], announcesBody: Bool)
        /// After a head announcing a body: framing is left to the HTTP parser from here on.
        case passThrough
        case refused

        var isInsideHead: Bool {
            switch self {
            case .requestLine(_, let started): return started
            case .headers: return true
            case .passThrough, .refused: return false
            }
        }
    }

    private let limits: RequestLimits
    private var phase = Phase.requestLine(length: 0, started: false)
    private var headDeadline: Scheduled<Void>?

    init(limits: RequestLimits) {
        self.limits = limits
    }

    /// A client that connects and sends nothing also gets `headTimeout`, then is closed.
    func handlerAdded(context: ChannelHandlerContext) {
        armHeadDeadline(context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headDeadline?.cancel()
    }

    func channelInactive(context: ChannelHandlerContext) {
        headDeadline?.cancel()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .refused: return
        case .passThrough: context.fireChannelRead(data); return
        default: break
        }
        if let refusal = unwrapInboundIn(data).withUnsafeReadableBytes({ scan($0) }) {
            refuse(refusal, context: context)
            return
        }
        // The deadline runs from a head's first byte to its end; between requests of a kept-alive
        // connection the server's idle timeout applies instead.
        if !phase.isInsideHead {
            headDeadline?.cancel()
            headDeadline = nil
        } else if headDeadline == nil {
            armHeadDeadline(context: context)
        }
        context.fireChannelRead(data)
    }

    enum Refusal: Equatable {
        case uriTooLong, headersTooLarge, timeout

        var statusLine: String {
            switch self {
            case .uriTooLong: return "414 URI Too Long"
            case .headersTooLarge: return "431 Request Header Fields Too Large"
            case .timeout: return "408 Request Timeout"
            }
        }

        var message: String {
            switch self {
            case .uriTooLong: return "The request line is too long for sitegen serve."
            case .headersTooLarge: return "The request headers are too large for sitegen serve."
            case .timeout: return "The request took too long to arrive."
            }
        }
    }

    /// Advances the phase over `bytes`; the limit broken, if any.
    func scan(_ bytes: UnsafeRawBufferPointer) -> Refusal? {
        for byte in bytes {
            switch phase {
            case .requestLine(let length, let started):
                if byte == UInt8(ascii: "\n") {
                    // Empty lines before a request line are allowed (RFC 9112 §2.2).
                    phase = started ? .headers(total: 0, lineLength: 0, lineStart: [], announcesBody: false)
                                    : .requestLine(length: 0, started: false)
                } else if byte == UInt8(ascii: "\r") && !started {
                    continue
                } else if length >= limits.requestLine {
                    return .uriTooLong
                } else {
                    phase = .requestLine(length: length + 1, started: true)
                }
            case .headers(let total, let lineLength, var lineStart, let announcesBody):
                if byte == UInt8(ascii: "\n") {
                    if lineLength == 0 || lineStart == [UInt8(ascii: "\r")] {
                        phase = announcesBody ? .passThrough : .requestLine(length: 0, started: false)
                    } else {
                        phase = .headers(total: total, lineLength: 0, lineStart: [],
                                         announcesBody: announcesBody || Self.framesBody(lineStart))
                    }
                } else if total >= limits.headers {
                    return .headersTooLarge
                } else {
                    if lineStart.count < Self.prefixLength {
                        lineStart.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
                    }
                    phase = .headers(total: total + 1, lineLength: lineLength + 1, lineStart: lineStart,
                                     announcesBody: announcesBody)
                }
            case .passThrough, .refused:
                return nil
            }
        }
        return nil
    }

    /// Enough of a header line to recognise the two headers that frame a body.
    static let prefixLength = 18

    static func framesBody(_ lineStart: [UInt8]) -> Bool {
        lineStart.starts(with: Array("content-length:".utf8)) || lineStart.starts(with: Array("transfer-encoding:".utf8))
    }

    private func armHeadDeadline(context: ChannelHandlerContext) {
        headDeadline?.cancel()
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        headDeadline = context.eventLoop.scheduleTask(in: limits.headTimeout) {
            let (handler, context) = bound.value
            if handler.phase.isInsideHead {
                handler.refuse(.timeout, context: context)
            } else if handler.phase == .requestLine(length: 0, started: false) {
                // Nothing of a request arrived: no answer owed, just free the slot.
                context.close(promise: nil)
            }
        }
    }

    /// Answers with `status`, stops reading requests and closes once the answer is out
    /// (after a short linger, so the client reads it instead of a connection reset).
    private func refuse(_ status: Refusal, context: ChannelHandlerContext) {
        phase = .refused
        headDeadline?.cancel()
        let body = status.message + "\n"
        let head = "HTTP/1.1 \(status.statusLine)\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: head + body))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
        }
        context.eventLoop.scheduleTask(in: limits.lingerAfterRefusal) {
            channel.close(promise: nil)
        }
    }
}
