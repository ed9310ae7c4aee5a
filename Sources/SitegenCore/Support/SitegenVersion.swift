public enum SitegenVersion {
    public static let current = "0.1.0"
}
