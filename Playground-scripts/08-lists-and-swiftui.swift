// What a list or a SwiftUI view needs from a source: change sets delivered on the main
// actor (merged when updates come faster than the main actor runs, never lost), staged for
// batch updates, and an `@Observable` view model that SwiftUI reads directly.
//
// Run: Playground-scripts/run.sh 08-lists-and-swiftui
import Foundation
import Observation
import ReactiveSources
import Signals

struct Photo: Hashable, Sendable, Identifiable {
    let id: Int
    var title: String
    var isFavourite = false
}

let library = SimpleDataSource(name: "Library", objects: [
    Photo(id: 1, title: "Lake"), Photo(id: 2, title: "Dunes", isFavourite: true), Photo(id: 3, title: "Harbour"),
])

// README: main-actor-list
// A table view's data source: apply each change on the main actor, in stages.
let favourites = library.filter { $0.isFavourite }.sorted(by: \.title)
var shown = Snapshot<Photo>()
let listSubscription = favourites.observeChangesOnMainActor { snapshot, changes in
    if changes.prefersReload(of: shown) {
        print("reload \(snapshot.allObjects.map(\.title))")    // tableView.reloadData()
    } else {
        for stage in changes.stages(from: shown, to: snapshot) {
            // tableView.performBatchUpdates { data = stage.snapshot; delete/insert/move },
            // then reconfigure stage.changes.updatedRows
            print("batch: +\(stage.changes.insertedRows) -\(stage.changes.deletedRows) ~\(stage.changes.updatedRows)")
        }
    }
    shown = snapshot
}
// END README

/// Lets the main actor run the deliveries scheduled so far.
func settle() async {
    for _ in 0..<3 { await withCheckedContinuation { continuation in Task { @MainActor in continuation.resume() } } }
}

await settle()
// Three edits while the main actor is busy here: one merged call follows.
try library.replace(at: 0, with: Photo(id: 1, title: "Lake", isFavourite: true))
library.append([Photo(id: 4, title: "Aurora", isFavourite: true)])
try library.replace(at: 1, with: Photo(id: 2, title: "Dunes at dusk", isFavourite: true))
await settle()
print("shown: \(shown.allObjects.map(\.title))")

// README: view-model
// SwiftUI: a view reads `model.snapshot` (and `model.contentState`) and redraws when they change.
let model = SourceViewModel(source: favourites)
let redraws = MutableProperty(0)
withObservationTracking {
    _ = model.snapshot
} onChange: {
    redraws.modify { $0 += 1 }
}
library.append([Photo(id: 5, title: "Beach", isFavourite: true)])
// END README
await settle()
print("model: \(model.snapshot.allObjects.map(\.title)), redraws: \(redraws.value)")
listSubscription.cancel()
