// Multi + Sectioned: derived sources that watch their children load, batch by batch.
//
// A photo app screen with two parts: "Albums" (photos grouped by album, arriving a few at
// a time) and "Shared with you" (a second, independent fetch that fails). Neither
// derived source fetches anything itself: `SectionedDataSource` regroups its child's
// snapshot and `MultiDataSource` composes its children's snapshots, and both publish
// change sets a table view could apply, updated on every partial load.
//
// Run: Playground-scripts/run.sh 03-multi-and-sectioned
import Foundation
import ReactiveSources
import Signals

struct Photo: Hashable, Sendable, CustomStringConvertible {
    let name: String
    let album: String
    var description: String { name }
}

// MARK: - A fetcher the script drives by hand
//
// Real fetchers (HTTP, files, async sequences) deliver batches whenever they arrive, on a
// background task. To get the same output on every run, this one waits for the script:
// `send` hands one batch to the source and returns once the source has applied it (and
// its observers have run, since observers run on the delivering thread before `deliver`
// returns). It serves a single fetch.
final class HandFeed<Object: Sendable>: Sendable {
    private enum Command: Sendable {
        case batch([Object], applied: CheckedContinuation<Void, Never>)
        case finish
        case fail(any Error)
    }

    private let commands: AsyncStream<Command>
    private let input: AsyncStream<Command>.Continuation

    init() {
        (commands, input) = AsyncStream<Command>.makeStream()
    }

    /// What a source fetches with: a closure fetcher that obeys the script's commands.
    var fetcher: ClosureFetcher<Object> {
        ClosureFetcher { [commands] sink in
            for await command in commands {
                switch command {
                case .batch(let objects, let applied):
                    await sink.deliver(objects)   // the source applies the batch here
                    applied.resume()
                case .finish:
                    return
                case .fail(let error):
                    throw error
                }
            }
        }
    }

    func send(_ objects: [Object]) async {
        await withCheckedContinuation { input.yield(.batch(objects, applied: $0)) }
    }

    func finish() { input.yield(.finish) }

    func fail(_ error: any Error) { input.yield(.fail(error)) }
}

// MARK: - Printing snapshots and change sets

func show(_ snapshot: Snapshot<Photo>, indent: String = "    ") {
    if snapshot.sections.isEmpty { print("\(indent)(no sections)") }
    for section in snapshot.sections {
        let rows = section.rows.map { row in
            switch row {
            case .object(let photo): return photo.name
            case .placeholder(.loading): return "(loading…)"
            case .placeholder(.loadingMore): return "(loading more…)"
            case .placeholder(.noResults): return "(nothing here)"
            case .placeholder(.error(let message)): return "(error: \(message))"
            }
        }
        print("\(indent)[\(section.title ?? "")] \(rows.isEmpty ? "(no rows)" : rows.joined(separator: ", "))")
    }
}

func describe(_ changes: ChangeSet) -> String {
    func paths(_ paths: [RowPath]) -> String { paths.map { "\($0.section).\($0.item)" }.joined(separator: " ") }
    var parts: [String] = []
    if !changes.insertedSections.isEmpty { parts.append("insert sections \(changes.insertedSections)") }
    if !changes.deletedSections.isEmpty { parts.append("delete sections \(changes.deletedSections)") }
    if !changes.movedSections.isEmpty { parts.append("move sections \(changes.movedSections.map { "\($0.from)→\($0.to)" })") }
    if !changes.insertedRows.isEmpty { parts.append("insert rows \(paths(changes.insertedRows))") }
    if !changes.deletedRows.isEmpty { parts.append("delete rows \(paths(changes.deletedRows))") }
    if !changes.updatedRows.isEmpty { parts.append("update rows \(paths(changes.updatedRows))") }
    if !changes.movedRows.isEmpty { parts.append("move rows \(changes.movedRows.map { "\(paths([$0.from]))→\(paths([$0.to]))" }.joined(separator: " "))") }
    return parts.isEmpty ? "no change" : parts.joined(separator: "; ")
}

// MARK: - Part 1: a Sectioned source over a source that loads in batches

print("== Part 1: SectionedDataSource groups photos by album as they arrive")

let albumFeed = HandFeed<Photo>()

// README: multi-sectioned
// Any fetcher works here (HTTP, a file, an AsyncSequence); this one is driven by the script.
let photos = RemoteDataSource(name: "Photos", fetcher: albumFeed.fetcher)

// Group the photos into one section per album, albums sorted by name. The grouping is
// derived: it follows `photos` by itself, and an append costs O(appended + sections).
let albums = SectionedDataSource(name: "Albums", child: photos, keyPath: \.album, sectionOrder: .ascending)

// observeChanges calls back at once with the current snapshot (empty here: nothing was
// fetched), then with every new snapshot and the change set that turns the previous one
// into it: exactly what a table view's batch update needs.
let albumWatch = albums.observeChanges { snapshot, changes in
    print("  albums changed: \(describe(changes))")
    show(snapshot)
}
// END README

albums.fetchData()                   // forwarded to `photos`, which shows a loading row
await albumFeed.send([Photo(name: "dunes.jpg", album: "Desert"), Photo(name: "waves.jpg", album: "Beach")])
await albumFeed.send([Photo(name: "shell.jpg", album: "Beach")])
await albumFeed.send([Photo(name: "cactus.jpg", album: "Desert"), Photo(name: "bridge.jpg", album: "City")])
albumFeed.finish()
await albums.settled()
print("  albums: \(albums.numberOfSections) sections, \(albums.allObjects.count) photos, state \(albums.contentState.value)")
albumWatch.cancel()

// MARK: - Part 2: a Multi source composes independent children

print("")
print("== Part 2: MultiDataSource composes a favourites list, the albums and a failing fetch")

let favourites = SimpleDataSource(name: "Favourites", objects: [Photo(name: "sunset.jpg", album: "Beach")])
let sharedFeed = HandFeed<Photo>()
let shared = RemoteDataSource(name: "Shared with you", fetcher: sharedFeed.fetcher)

/// The screen's load events, appended by the printing observer once it has printed each.
let eventLog = MutableProperty<[LoadEvent]>([])

/// Runs `trigger`, then waits until the screen has sent (and printed) `event`. Everything
/// a change prints happens before the Multi's own event, so nothing prints after this returns.
func expect(_ event: LoadEvent, after trigger: () -> Void) async {
    let start = eventLog.value.count
    trigger()
    for await log in eventLog.values where log.dropFirst(start).contains(event) { return }
}

let freshFeed = HandFeed<Photo>()
let freshPhotos = RemoteDataSource(name: "Photos", fetcher: freshFeed.fetcher)
let freshAlbums = SectionedDataSource(name: "Albums", child: freshPhotos, keyPath: \.album, sectionOrder: .ascending)

// README: multi
// One section per child by default; `splicesChildSections: true` splices each child's own
// sections in instead, so the albums keep their per-album sections.
let screen = MultiDataSource(name: "Photos screen", children: [favourites, freshAlbums, shared], splicesChildSections: true)

let screenWatch = screen.observeChanges { snapshot, changes in
    print("  screen changed: \(describe(changes))")
    show(snapshot)
}
// END README

// The load events of a Multi aggregate its children's: one willLoad, a didPartiallyLoad
// per child batch or child that ends early, one finisher when every child has ended.
let events = screen.loadEvents.observe { event in
    print("  event: \(event)")
    eventLog.modify { $0.append(event) }
}
screen.fetchData()                   // fetches every child

await freshFeed.send([Photo(name: "waves.jpg", album: "Beach")])
await freshFeed.send([Photo(name: "dunes.jpg", album: "Desert")])

// A failing child shows an error row in its own section; the others are unaffected.
struct Offline: LocalizedError {
    var errorDescription: String? { "You are offline." }
}
await expect(.didPartiallyLoad) { sharedFeed.fail(Offline()) }

await freshFeed.send([Photo(name: "shell.jpg", album: "Beach")])
await expect(.didFinishLoading) { freshFeed.finish() }

print("  screen: \(screen.numberOfSections) sections, \(screen.allObjects.count) photos, status \(screen.loadState.value.status)")
print("  titles: \((0..<screen.numberOfSections).map { screen.title(ofSection: $0) ?? "-" })")

// Row lookups go through the composed snapshot; `willDisplayRow` is forwarded to the child
// that owns the row (a paginated child would load its next page from here).
if let path = screen.path(of: Photo(name: "dunes.jpg", album: "Desert")) {
    print("  dunes.jpg is at section \(path.section), row \(path.row)")
}
events.cancel()
screenWatch.cancel()
