import Foundation

/// "Photos" that arrive one at a time, so partial loads are visible.
enum PhotoStream {
    /// The photos, in arrival order.
    static let photos: [Photo] = [
        Photo(id: 1, caption: "Harbour at dawn", kind: "landscape"),
        Photo(id: 2, caption: "Grandma's cat", kind: "portrait"),
        Photo(id: 3, caption: "Ridge trail", kind: "landscape"),
        Photo(id: 4, caption: "Team lunch", kind: "people"),
        Photo(id: 5, caption: "Self-portrait", kind: "portrait"),
        Photo(id: 6, caption: "Old town", kind: "landscape"),
    ]

    /// The photos, each after `interval`.
    static func stream(interval: Duration) -> AsyncThrowingStream<Photo, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                for photo in photos {
                    do { try await Task.sleep(for: interval) } catch {
                        continuation.finish(throwing: error)
                        return
                    }
                    continuation.yield(photo)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
