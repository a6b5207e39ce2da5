// A service bound to a derived view: an always-current inbox summary, consumed with
// `for await`.
//
// The pattern: keep one source of truth (the source's snapshot), derive what you need
// from it with a `Property` (recomputed only when the snapshot changes, equal results cut
// off), and let a service consume that derived property as an `AsyncSequence`. The
// service never stores counts next to the snapshot, so they cannot drift.
//
// Run: Playground-scripts/run.sh 05-service-derived-view
import Foundation
import ReactiveSources
import Signals

struct Message: Hashable, Sendable {
    let id: Int
    let subject: String
    var isRead = false
}

/// A stand-in for a mail server: the fetcher below reads from it.
actor MailServer {
    private var messages: [Message] = [
        Message(id: 1, subject: "Welcome!", isRead: true),
        Message(id: 2, subject: "Your invoice"),
    ]
    private var isOnline = true

    func receive(_ message: Message) { messages.append(message) }
    func markRead(id: Int) {
        if let index = messages.firstIndex(where: { $0.id == id }) { messages[index].isRead = true }
    }
    func setOnline(_ online: Bool) { isOnline = online }

    func fetch() throws -> [Message] {
        guard isOnline else { throw URLError(.notConnectedToInternet) }
        return messages
    }
}

/// What a badge shows, derived from a snapshot (never stored next to it).
struct InboxSummary: Equatable, Sendable {
    var total: Int
    var unread: Int
    var newestUnread: String?

    init(_ snapshot: Snapshot<Message>) {
        let messages = snapshot.allObjects
        total = messages.count
        unread = messages.count { !$0.isRead }
        newestUnread = messages.last { !$0.isRead }?.subject
    }
}

/// A service bound to a derived view. `Property.values` is an `AsyncSequence`: the current
/// value, then every change; a slow consumer skips straight to the newest value.
actor BadgeService {
    private(set) var badge = ""
    private(set) var renders = 0
    private var binding: Task<Void, Never>?
    /// The summary last shown, observable (the script waits on it).
    nonisolated let shown = MutableProperty<InboxSummary?>(nil)

    // README: service-bind
    func bind(to summaries: Property<InboxSummary>) {
        binding = Task {
            for await summary in summaries.values {   // current value, then every change
                self.show(summary)
            }
        }
    }
    // END README

    /// Cancelling the task ends the iteration, which cancels the underlying subscription.
    func unbind() {
        binding?.cancel()
        binding = nil
    }

    private func show(_ summary: InboxSummary) {
        guard !Task.isCancelled else { return }
        badge = summary.unread == 0 ? "Inbox" : "Inbox (\(summary.unread)): \(summary.newestUnread ?? "")"
        renders += 1
        shown.value = summary
    }
}

/// Waits until the service has shown `summary` (it runs on its own actor, so it catches up
/// a moment after the source changes).
func caughtUp(_ service: BadgeService, with summary: InboxSummary) async {
    for await shown in service.shown.values where shown == summary { return }
}

let server = MailServer()

// README: derived-view
let inbox = RemoteDataSource(name: "Inbox", fetcher: ClosureFetcher { sink in
    await sink.deliver(try await server.fetch())
})

// The derived view: recomputed when the inbox publishes; equal summaries are cut off, so
// nothing downstream runs when a refresh changes nothing the summary reads.
let summary = inbox.snapshots.map(InboxSummary.init)

let service = BadgeService()
await service.bind(to: summary)
// END README

func step(_ title: String) async {
    await inbox.settled()
    let current = summary.value            // a derived property is current right away
    await caughtUp(service, with: current)  // the service catches up asynchronously
    print("== \(title)")
    print("  summary: \(current.total) messages, \(current.unread) unread; content: \(inbox.contentState.value)")
    print("  badge:   \(await service.badge)   (summaries rendered: \(await service.renders))")
}

await step("bound, before any fetch")

inbox.fetchData()
await step("first fetch")

await server.receive(Message(id: 3, subject: "Lunch on Friday?"))
inbox.fetchData()
await step("new mail, then a refresh")

await server.markRead(id: 2)
inbox.fetchData()
await step("the invoice was read elsewhere, then a refresh")

inbox.fetchData()
await step("a refresh that changes nothing: the equal summary is cut off, no new render")

await server.setOnline(false)
inbox.fetchData()
await step("a failed refresh keeps the content, so the summary and badge stay")

await service.unbind()
await server.setOnline(true)
await server.receive(Message(id: 4, subject: "Re: Lunch"))
inbox.fetchData()
await inbox.settled()
print("== after unbind(), new mail and a refresh")
print("  summary: \(summary.value.unread) unread (the derived property is still current)")
print("  badge:   \(await service.badge)   (the service no longer follows)")
