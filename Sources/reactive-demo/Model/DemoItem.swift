import Foundation

/// A post of the simulated (or real) paginated feed, decoded from JSON objects with an
/// integer `id`, a `title` and, optionally, an `author`.
struct FeedPost: Hashable, Sendable, Codable {
    let id: Int
    let title: String
    let author: String?
}

/// A "photo" arriving one at a time; the Sectioned view groups photos by `kind`.
struct Photo: Hashable, Sendable {
    let id: Int
    let caption: String
    let kind: String
}

/// Every row object of the demo's Multi source: children of different element types are
/// mapped to this common type.
enum DemoItem: Hashable, Sendable {
    case line(number: Int, text: String)
    case post(FeedPost)
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
