// Compiles only if our public names and OpenCombine's (Combine's) can be used unqualified
// in one file, as UI code that imports both does: a new public type of ours named like one
// of theirs (`Subscription`, `Publisher`, `Subject`, `Cancellable`...) makes this file's
// unqualified uses ambiguous and `swift build` of the Benchmarks package fails here.
// Nothing calls it; `.ci/benchmarks-smoke` builds it.
import OpenCombine
import ReactiveSources
import Signals

/// Uses our types and OpenCombine's side by side, unqualified. Returns a value built from
/// both so nothing is unused.
func nameClashCheck() -> Int {
    // Ours: snapshots, sections, paths, change sets, properties, signals, subscriptions.
    let section: SnapshotSection<String> = SnapshotSection(id: "s", title: "S", objects: ["a", "b"])
    let snapshot: Snapshot<String> = Snapshot(sections: [section])
    let path: RowPath = RowPath(item: 1, section: 0)
    var changes: ChangeSet = ChangeSet()
    changes.insertedRows = [path]
    let row: Row<String>? = snapshot.sections.first?.rows.last
    let placeholder: Placeholder = .loadingMore
    let property: MutableProperty<Int> = MutableProperty(1)
    let readOnly: Property<Int> = property.readOnly
    let (signal, input): (Signal<Int>, Signal<Int>.Input) = Signal<Int>.pipe()
    let bag = SubscriptionBag()
    let ours: SignalSubscription = signal.observe { _ in }
    ours.store(in: bag)
    readOnly.observe { _ in }.store(in: bag)
    input.send(2)
    let source: SimpleDataSource<String> = SimpleDataSource(objects: ["x"])
    let state: LoadState = source.loadState.value
    let event: Signal<LoadEvent> = source.loadEvents
    let selection = Selection(source: source) { _ in SelectionPolicy.multiple }

    // Theirs: a subject, a subscriber's subscription, cancellables, publishers.
    let subject = PassthroughSubject<Int, Never>()
    let current = CurrentValueSubject<String, Never>("c")
    var received: [Int] = []
    var theirs: (any Subscription)?
    let sink = AnySubscriber<Int, Never>(
        receiveSubscription: { subscription in
            theirs = subscription
            subscription.request(.unlimited)
        },
        receiveValue: { value in
            received.append(value)
            return .none
        },
        receiveCompletion: { _ in }
    )
    subject.subscribe(sink)
    subject.send(3)
    theirs?.cancel()
    let cancellable: AnyCancellable = current.sink { _ in }
    var cancellables = Set<AnyCancellable>()
    cancellable.store(in: &cancellables)
    let just: AnyPublisher<Int, Never> = Just(4).eraseToAnyPublisher()
    let cancel: any Cancellable = just.sink { received.append($0) }
    cancel.cancel()

    _ = (row, placeholder, state, event, selection, changes)
    return received.count + snapshot.numberOfSections + bag.count
}
