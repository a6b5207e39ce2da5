import Foundation

/// A post of the simulated (or real) paginated feed, decoded from JSON objects with an
/// integer `id`, a `title` and, optionally, an `author`.
struct FeedPost: Hashable, Sendable, Codable {
    /// The post's identity (also its identity in the paginated source).
    let id: Int
    /// The post's title.
    let title: String
    /// Who wrote it, if the API says.
    let author: String?
}

/// A "photo" arriving one at a time; the Sectioned view groups photos by `kind`.
struct Photo: Hashable, Sendable {
    /// The photo's identity.
    let id: Int
    /// What the photo shows.
    let caption: String
    /// The group of the Sectioned view ("landscape", "portrait", ...).
    let kind: String
}

/// Every row object of the demo's Multi source: children of different element types are
/// mapped to this common type.
enum DemoItem: Hashable, Sendable {
    /// Line `number` (from 1) of the poem.
    case line(number: Int, text: String)
    /// A post of the feed.
    case post(FeedPost)
    /// A photo.
    case photo(Photo)

    /// The text shown in the table.
    var text: String {
        switch self {
        case .line(let number, let text): return String(format: "%2d  %@", number, text)
        case .post(let post): return "#\(post.id) \(post.title)" + (post.author.map { " — \($0)" } ?? "")
        case .photo(let photo): return "📷 \(photo.caption) (\(photo.kind))"
        }
    }
}
