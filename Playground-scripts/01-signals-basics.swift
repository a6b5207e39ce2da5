// Signals basics: properties, derived values, observation, batching.
//
// `Signals` is the reactive core the data sources are built on, usable on its own: values
// you can observe (`MutableProperty`, `Property`), values derived from them (recomputed
// lazily, only when an input changed) and event streams (`Signal`). Everything may be
// called from any thread; observers run on the thread that made the change, before the
// write returns, never concurrently with themselves and with no lock held.
//
// Run: Playground-scripts/run.sh 01-signals-basics
import Signals

// README: signals
// A MutableProperty holds a value you can read, write and observe.
let firstName = MutableProperty("Ada")
let lastName = MutableProperty("Lovelace")

// A derived property is a closure that reads other properties. Its dependencies are
// discovered as it runs, and it recomputes lazily, only when one of them changed.
let fullName = Property { "\(firstName.value) \(lastName.value)" }
print("full name:", fullName.value)

// observe() calls you with the current value, then with every change, until you cancel.
let subscription = fullName.observe { print("observed:", $0) }
firstName.value = "Augusta"

// batch groups writes: observers run once, at the end, with the final values.
batch {
    firstName.value = "Grace"
    lastName.value = "Hopper"
}
// END README

// Writing an equal value is ignored for Equatable values: nobody is notified.
lastName.value = "Hopper"

// modify is an atomic read-modify-write.
let counter = MutableProperty(0)
for _ in 0..<10 { counter.modify { $0 += 1 } }
print("counter:", counter.value)

// A Signal carries discrete events, with no current value.
let (taps, tapInput) = Signal<String>.pipe()
let tapSubscription = taps.map { $0.uppercased() }.observe { print("tap:", $0) }
tapInput.send("hello")
tapInput.send("world")

// Cancelling stops delivery at once.
subscription.cancel()
tapSubscription.cancel()
firstName.value = "Nobody sees this"
tapInput.send("nor this")
print("done")
