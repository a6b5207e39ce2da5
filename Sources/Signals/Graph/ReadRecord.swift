/// The properties some code read while a derived computation ran, kept so that later runs
/// can read them again: a derived data source runs its user closures (a predicate reading
/// a search text) on a few rows per update, or on none, and would otherwise stop depending
/// on what they read (a run depends on what it read, see ``Property``).
///
/// The record only grows between full passes (it cannot tell which row read what), so a
/// closure that reads one property per row keeps those of removed rows: ``isOverfull`` says
/// when a full pass should start it again, which bounds it to twice what the last full pass
/// read, plus 64.
///
/// Not thread-safe: used from one derived property's closure, whose runs are serial.
/// Package-internal: the data sources use it; users write `Property { }` closures instead.
package final class ReadRecord: @unchecked Sendable {
    /// Each property read (its node, retained) with the version it had then.
    private var reads: [ObjectIdentifier: (node: GraphNode, version: UInt64)] = [:]
    /// The run marker of ``recording(_:)``: a node with no dependencies, so that every read
    /// of the nested run is collected.
    private let marker = GraphNode(component: GraphComponent.nursery)

    package init() {}

    /// How many properties the last full pass read (see ``removeAll()``).
    private var afterFullPass = 0
    /// Whether the next recording is a full pass.
    private var startsFullPass = false

    /// Whether the record has grown past twice what the last full pass read, plus 64: then
    /// the owner should forget it and read everything again. O(1).
    package var isOverfull: Bool { reads.count > 2 &* afterFullPass &+ 64 }

    /// Forgets every recorded read, before a pass that reads everything again (the next
    /// ``recording(_:)``).
    package func removeAll() {
        reads.removeAll(keepingCapacity: reads.count <= 2 &* afterFullPass &+ 64)
        startsFullPass = true
    }

    /// Runs `body`, adding the properties it reads to the record; they stay dependencies of
    /// the computation running on this thread, if any. O(r) for r distinct properties read.
    package func recording<T>(_ body: () -> T) -> T {
        Graph.current._withUnsafeGuaranteedRef { graph in
            let run = graph.beginRun(for: marker)
            let result = body()
            defer {
                if startsFullPass {
                    afterFullPass = reads.count
                    startsFullPass = false
                }
            }
            guard graph.endRun(run) == nil else { return result }
            // The nested run's reads (retained until dropped): new ones are kept here and,
            // once dropped, recorded again for the outer run (the nested run took them).
            var added: [(node: GraphNode, version: UInt64)] = []
            for index in run.start..<graph.collected.count {
                let read = graph.collected[index]
                let node = read.node.takeUnretainedValue()
                let id = ObjectIdentifier(node)
                if reads[id] == nil {
                    reads[id] = (node, read.version)
                    added.append((node, read.version))
                }
            }
            graph.dropReads(of: run)
            // At the version the body saw: a write made since (while this thread waited
            // with its lock released, to join a busy component) leaves the outer run stale.
            for read in added { graph.track(read.node, seen: read.version) }
            return result
        }
    }

    /// Reads every recorded property again, so that the computation running on this thread
    /// depends on them; returns whether any of them changed since it was recorded (then
    /// whatever was computed from them is stale). O(r).
    package func readAgain() -> Bool {
        var changed = false
        Graph.current._withUnsafeGuaranteedRef { graph in
            for (_, read) in reads {
                let node = read.node
                let held = graph.holds(node)
                if !held { graph.lock(node) }
                node.readValue(in: graph)
                if node.version != read.version { changed = true }
                if !held { graph.unlockAndDeliver() }
            }
        }
        return changed
    }
}
