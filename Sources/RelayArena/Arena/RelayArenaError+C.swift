// A C core error (`ra_error`: code, message, path, offset) as the runtime's error type.
internal import CRelayArena

extension RelayArenaError {
    init(_ e: ra_error, aboutInput: Bool = true) {
        self.init(
            code: Code(rawValue: Int(e.code.rawValue)) ?? .misuse,
            message: withUnsafeBytes(of: e.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        let path = withUnsafeBytes(of: e.path) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        self.path = path.isEmpty ? nil : path
        self.offset = aboutInput ? e.offset : nil
    }
}

extension RelayArenaError {
    /// A snapshot's error: the check that failed and the file offset it applies to (`invalidSnapshot`), or
    /// the file's I/O error (`io`, the path in the message).
    init(snapshot e: ra_error, path: String) {
        self.init(e)
        switch e.code {
        case RA_ERR_SNAPSHOT:
            code = .invalidSnapshot
            message = "\(path): \(message)"
        case RA_ERR_IO:
            code = .io
            offset = nil
        default:
            offset = nil
        }
    }
}
