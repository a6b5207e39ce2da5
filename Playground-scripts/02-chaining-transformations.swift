// Chaining transformations: map, skipRepeats, combineLatest, flatMap and a glitch-free
// diamond.
//
// Every operator returns a new derived `Property`: nothing is computed until someone
// reads or observes it, and a derived value recomputes only when a value it read changed.
// Derived closures run while the graph is locked, so keep them pure and fast.
//
// Run: Playground-scripts/run.sh 02-chaining-transformations
import Signals

let temperatureCelsius = MutableProperty(21.0)

// map derives a new property; for Equatable results, equal values are cut off.
let feelsLike = temperatureCelsius
    .map { $0 < 18 ? "cold" : ($0 > 26 ? "hot" : "nice") }
let feelings = feelsLike.observe { print("it feels", $0) }
temperatureCelsius.value = 22   // still "nice": no notification
temperatureCelsius.value = 30   // "hot"

// combineLatest joins several properties into one tuple, glitch-free.
let width = MutableProperty(2)
let height = MutableProperty(3)
let area = combineLatest(width, height).map { $0 * $1 }
let areas = area.observe { print("area:", $0) }
batch {
    width.value = 4
    height.value = 5
}

// A diamond: one write to `base` changes both branches, and the join sees them together,
// exactly once: never a mix of an old and a new branch.
let base = MutableProperty(1)
let doubled = base.map { $0 * 2 }
let squared = base.map { $0 * $0 }
let joined = Property { "doubled=\(doubled.value) squared=\(squared.value)" }
let joins = joined.observe { print("join:", $0) }
base.value = 3

// flatMap switches to the property chosen by another (switch-to-latest).
let english = MutableProperty("hello")
let french = MutableProperty("bonjour")
let useFrench = MutableProperty(false)
let greeting = useFrench.flatMap { $0 ? french : english }
let greetings = greeting.observe { print("greeting:", $0) }
useFrench.value = true
english.value = "hi"            // not followed any more: no notification
french.value = "salut"

// Conditional reads: this derived value depends only on what it actually read.
let showDetails = MutableProperty(false)
let detail = MutableProperty("details")
let summary = Property { showDetails.value ? "summary + \(detail.value)" : "summary" }
let summaries = summary.observe { print("summary:", $0) }
detail.value = "more details"   // not read while hidden: no recomputation
showDetails.value = true

for subscription in [feelings, areas, joins, greetings, summaries] { subscription.cancel() }
