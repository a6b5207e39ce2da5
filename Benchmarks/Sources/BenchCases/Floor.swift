/// The "floor": a minimal single-threaded push-pull graph (final classes, dirty flags, no
/// locks, no type erasure beyond one class hierarchy), following the reactively/Solid
/// colouring algorithm: a write marks direct observers dirty and the rest "check"; reads
/// validate lazily; effects are queued during the push and run at the end of the write or
/// batch. Dependencies are tracked automatically (dynamic). Hot fields skip Swift's dynamic
/// exclusivity checks and the context is `unowned(unsafe)`: both are per-access runtime
/// calls a hand-tuned single-threaded graph would not pay.
public enum Floor {
    enum State: UInt8, Comparable {
        case clean = 0, check = 1, dirty = 2
        static func < (a: State, b: State) -> Bool { a.rawValue < b.rawValue }
    }

    /// Per-graph context (one per benchmark case instance; single-threaded).
    public final class Context {
        @exclusivity(unchecked) var tracking: Node?
        @exclusivity(unchecked) var collected: ContiguousArray<Node> = []
        @exclusivity(unchecked) var epochCounter: UInt64 = 0
        @exclusivity(unchecked) var currentEpoch: UInt64 = 0
        @exclusivity(unchecked) var effectQueue: ContiguousArray<Node> = []
        @exclusivity(unchecked) var batchDepth = 0

        public init() {}

        public func batch(_ body: () -> Void) {
            batchDepth += 1
            body()
            batchDepth -= 1
            if batchDepth == 0 { flush() }
        }

        func flush() {
            var index = 0
            while index < effectQueue.count {
                effectQueue[index].updateIfNecessary()
                index += 1
            }
            effectQueue.removeAll(keepingCapacity: true)
        }
    }

    public class Node {
        unowned(unsafe) let context: Context
        @exclusivity(unchecked) final var sources: ContiguousArray<Node> = []
        @exclusivity(unchecked) final var observers: ContiguousArray<Node> = []
        @exclusivity(unchecked) final var state: State
        @exclusivity(unchecked) final var trackEpoch: UInt64 = 0
        final let isEffect: Bool

        init(context: Context, state: State, isEffect: Bool) {
            self.context = context
            self.state = state
            self.isEffect = isEffect
        }

        /// Recomputes; returns whether the value changed.
        func recompute() -> Bool { false }

        @inline(__always) final func track() {
            guard context.tracking != nil else { return }
            if trackEpoch == context.currentEpoch { return }
            trackEpoch = context.currentEpoch
            context.collected.append(self)
        }

        final func stale(_ newState: State) {
            if state < newState {
                if state == .clean && isEffect { context.effectQueue.append(self) }
                state = newState
                for observer in observers { observer.stale(.check) }
            }
        }

        final func updateIfNecessary() {
            if state == .check {
                for source in sources {
                    source.updateIfNecessary()
                    if state == .dirty { break }
                }
            }
            if state == .dirty { update() }
            state = .clean
        }

        final func update() {
            let context = self.context
            let previousTracking = context.tracking
            let previousEpoch = context.currentEpoch
            let start = context.collected.count
            context.tracking = self
            context.epochCounter &+= 1
            context.currentEpoch = context.epochCounter
            let changed = recompute()
            context.tracking = previousTracking
            context.currentEpoch = previousEpoch
            relink(context.collected, from: start)
            context.collected.removeSubrange(start...)
            if changed {
                for observer in observers { observer.state = .dirty }
            }
            state = .clean
        }

        private func relink(_ collected: ContiguousArray<Node>, from start: Int) {
            let count = collected.count - start
            if count == sources.count {
                var same = true
                for index in 0..<count where collected[start + index] !== sources[index] {
                    same = false
                    break
                }
                if same { return }
            }
            for source in sources {
                if let index = source.observers.firstIndex(where: { $0 === self }) {
                    source.observers.remove(at: index)
                }
            }
            sources = ContiguousArray(collected[start...])
            for source in sources { source.observers.append(self) }
        }
    }

    public final class Signal<Value: Equatable>: Node {
        @exclusivity(unchecked) private var storage: Value

        public init(_ value: Value, in context: Context) {
            storage = value
            super.init(context: context, state: .clean, isEffect: false)
        }

        public var value: Value {
            get {
                track()
                return storage
            }
            set {
                if storage == newValue { return }
                storage = newValue
                for observer in observers { observer.stale(.dirty) }
                if context.batchDepth == 0 { context.flush() }
            }
        }
    }

    public final class Computed<Value: Equatable>: Node {
        @exclusivity(unchecked) private var storage: Value?
        private let compute: () -> Value

        public init(in context: Context, _ compute: @escaping () -> Value) {
            self.compute = compute
            super.init(context: context, state: .dirty, isEffect: false)
        }

        override func recompute() -> Bool {
            let newValue = compute()
            if let storage, storage == newValue { return false }
            storage = newValue
            return true
        }

        public var value: Value {
            track()
            updateIfNecessary()
            return storage!
        }
    }

    public final class Effect: Node {
        private let body: () -> Void

        /// Runs `body` once now, then after every batch/write that changes what it read.
        public init(in context: Context, _ body: @escaping () -> Void) {
            self.body = body
            super.init(context: context, state: .dirty, isEffect: true)
            updateIfNecessary()
        }

        override func recompute() -> Bool {
            body()
            return false
        }

        /// Unsubscribes from every source.
        public func dispose() {
            for source in sources {
                if let index = source.observers.firstIndex(where: { $0 === self }) {
                    source.observers.remove(at: index)
                }
            }
            sources = []
        }
    }
}
