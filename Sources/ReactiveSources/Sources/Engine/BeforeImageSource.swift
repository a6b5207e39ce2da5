/// A source that can record before-images of its row edits (see
/// ``SnapshotUpdate/beforeImages(since:)``) for the derived sources that ask for them.
protocol BeforeImageSource: AnyObject {
    /// Starts recording before-images with every row edit, until ``endBeforeImages()``.
    func requestBeforeImages()
    /// Ends one ``requestBeforeImages()``.
    func endBeforeImages()
}
