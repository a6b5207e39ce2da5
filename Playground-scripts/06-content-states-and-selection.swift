// Content states, placeholder rows and selection.
//
// Part 1 walks a source through the content-state machine a view draws from (initial,
// loading, empty, loaded, refreshing, error) and shows the placeholder rows that go with
// each state. Part 2 selects rows of a composed source under per-section rules.
//
// Run: Playground-scripts/run.sh 06-content-states-and-selection
import Foundation
import ReactiveSources
import Signals

// MARK: - A fetcher that waits for the script

/// What the next fetch answers.
enum Answer: Sendable {
    case tasks([String])
    case failure(String)
    /// Never answers (until cancelled).
    case hang
}

struct ServerError: LocalizedError {
    let errorDescription: String?
}

/// The fetcher reads `answer` only once `released` is true, so the script can look at the
/// source while the fetch is still in flight. `Property.values` ends when the fetching task
/// is cancelled, which makes the fetch throw `CancellationError` promptly.
let answer = MutableProperty(Answer.hang)
let released = MutableProperty(false)
let fetcher = ClosureFetcher<String> { sink in
    for await isReleased in released.values where isReleased { break }
    try Task.checkCancellation()
    switch answer.value {
    case .tasks(let tasks): await sink.deliver(tasks)
    case .failure(let message): throw ServerError(errorDescription: message)
    case .hang: try await Task.sleep(for: .seconds(3600))
    }
}

func rows(_ source: some DataSource<String>) -> String {
    let rows = source.snapshot.sections.flatMap(\.rows).map { row -> String in
        switch row {
        case .object(let task): return task
        case .placeholder(let placeholder): return "<\(placeholder)>"
        }
    }
    return rows.isEmpty ? "(no rows)" : rows.joined(separator: ", ")
}

// MARK: - Part 1: content states and placeholders

print("== Part 1: content states")

// `.all` placeholders: a loading row while nothing is shown, a no-results row after an
// empty fetch, an error row after a failure (after the objects, which are kept).
let tasks = RemoteDataSource(name: "Tasks", fetcher: fetcher, placeholders: .all)

// What a view draws from: the content state (initial, loading, refreshing, loaded, empty,
// error), a total function of (state, load event), so no invalid transition exists.
func show(_ step: String) {
    let state = tasks.loadState.value
    print("  \(step): \(state.content), status \(state.status), rows: \(rows(tasks))")
}

show("before any fetch")

// While a fetch runs with nothing shown: `loading`, with a loading row.
released.value = false
answer.value = .tasks([])
tasks.fetchData()
show("fetching")
released.value = true
await tasks.settled()
show("finished with nothing")

released.value = false
answer.value = .tasks(["Write the tests", "Ship it"])
tasks.fetchData()
show("fetching again")
released.value = true
await tasks.settled()
show("finished with tasks")

// With content on screen a fetch is a refresh: the objects stay, no loading row.
released.value = false
answer.value = .failure("The server is down.")
tasks.fetchData()
show("refreshing")
released.value = true
await tasks.settled()
// A failed refresh keeps the content and adds an error row after it.
show("refresh failed")

// Cancelling a fetch: it ends with didFail(.cancelled); the content state goes back to
// what it was before the fetch (a cancellation is not an error to show).
released.value = false
answer.value = .hang
tasks.fetchData()
show("refreshing")
tasks.cancelFetch()
show("cancelled")

// MARK: - Part 2: selection

print("")
print("== Part 2: selection with per-section rules")

// README: selection
let sizes = SimpleDataSource(name: "Size", objects: ["Small", "Medium", "Large"])
let toppings = SimpleDataSource(name: "Toppings", objects: ["Basil", "Olives", "Chili", "Garlic"])
let order = MultiDataSource(name: "Pizza", children: [sizes, toppings])

// A Multi's sections are named by its children. A size is required (the first one is
// preselected, so the order is valid at once); at most two toppings.
let choice = Selection(source: order, policies: ["Size": .exactlyOne, "Toppings": .upTo(2)])
print("  to start: \(choice.selectedObjects)")   // ["Small"]
try choice.select(at: RowPath(row: 1, section: 0))    // Medium replaces Small
try choice.select(at: RowPath(row: 0, section: 1))    // Basil
try choice.select(at: RowPath(row: 2, section: 1))    // Chili
try choice.select(at: RowPath(row: 3, section: 1))    // Garlic: evicts Basil, the oldest
print("  selected: \(choice.selectedObjects)")

// One subscription gives the rows and the selection over them, always from one snapshot.
let watch = choice.state.observe(emitsCurrentValue: false) { state in
    let sizes = state.snapshot.sections[0].objects.map { state.selectedObjects(inSection: "Size").contains($0) ? "[\($0)]" : $0 }
    print("  sizes: \(sizes.joined(separator: " ")); toppings: \(state.selectedObjects(inSection: "Toppings"))")
}
// END README

func attempt(_ what: String, _ body: () throws(SelectionError) -> Void) {
    do {
        try body()
        print("  \(what): ok, selected \(choice.selectedObjects)")
    } catch {
        print("  \(what): refused: \(error)")
    }
}

attempt("choose Large instead") { () throws(SelectionError) in try choice.select(at: RowPath(row: 2, section: 0)) }
attempt("deselect Large") { () throws(SelectionError) in try choice.deselect(at: RowPath(row: 2, section: 0)) }
attempt("select row 9") { () throws(SelectionError) in try choice.select(at: RowPath(row: 9, section: 1)) }

// Selections follow the rows through each change set: a moved row stays selected, a
// deleted one leaves the selection, and the size section falls back to its first row.
try toppings.move(from: 3, to: 0)        // Garlic moves to the top: still selected
print("  toppings now: \(toppings.objects), Garlic selected? \(choice.isSelected(at: RowPath(row: 0, section: 1)))")
try toppings.remove(at: 3)               // Chili sold out: dropped from the selection
try sizes.remove(at: 2)                  // Large sold out: Small is chosen instead
print("  selected: \(choice.selectedObjects)")
watch.cancel()
