extension String {
    /// `hasPrefix` by UTF-8 bytes. Output paths are compared this way: a rebuild checks the
    /// 140,000 paths it keeps, and String's own comparison (by characters, with Unicode
    /// equivalence) costs several times more. For a path, bytes are what the file system sees.
    package func hasPathPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        return utf8.count >= count && prefix.withUTF8Buffer { utf8.prefix(count).elementsEqual($0) }
    }

    /// `hasSuffix` by UTF-8 bytes (see `hasPathPrefix`).
    package func hasPathSuffix(_ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        return utf8.count >= count && suffix.withUTF8Buffer { utf8.suffix(count).elementsEqual($0) }
    }
}
