/// Limits every store backend keeps, whoever writes (the app, the JSON API, the command line tool, sync): what a
/// record holds is listed on its pages and walked by its queries, so it is bounded.
public enum OCKStoreLimits {
    /// The most patients, care plans, contacts or tasks of one kind a store holds that are not deleted (their
    /// versions are not counted). Adding more fails with `OCKStoreError.addFailed` (`tooMany(_:)`) and adds nothing;
    /// deleting one makes room.
    public static let maximumEntitiesOfAKind = 1_000

    /// The reason of the failure to add a `kind` ("task") beyond the limit.
    public static func tooMany(_ kind: String) -> String {
        "A store holds at most \(maximumEntitiesOfAKind) \(kind)s that are not deleted: delete one first"
    }
}
