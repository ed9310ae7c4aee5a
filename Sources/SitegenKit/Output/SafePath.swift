/// Output paths are made only from validated parts (share codes, UUIDs, slugs); this
/// check is the last line of defence against writing outside the output folder.
public enum SafePath {
    public static func isSafe(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && part != "." && part != ".."
        }
    }
}
