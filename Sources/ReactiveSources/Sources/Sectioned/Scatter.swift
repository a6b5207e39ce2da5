/// Up to this many groups, ``scatter(_:groupOf:counts:order:)`` writes straight into the
/// final arrays, each held open by one nested `Array(unsafeUninitializedCapacity:)` call (a
/// small stack frame per group); beyond it, it goes through one temporary buffer.
let maxDirectScatterGroups = 128

/// Distributes the objects of `sections` into one array per group, in one pass over them.
///
/// - `groupOf[i]` is the group number of the i-th object (counting section by section);
/// - `counts[g]` is the number of objects in group `g` (at least 1);
/// - returns the arrays of the groups listed in `order` (a permutation of the group
///   numbers), in that order; each keeps its objects in their original order.
///
/// Every object is copied once (plus one move when there are more than
/// ``maxDirectScatterGroups`` groups). The per-object work touches only raw pointers:
/// generic `Array` calls, unspecialized for the client's `Object`, fetch type metadata from
/// the runtime on every call. Complexity: O(n + groups).
func scatter<Object: Hashable & Sendable>(
    _ sections: [SnapshotSection<Object>], groupOf: UnsafePointer<UInt32>, counts: [Int], order: [Int]
) -> [[Object]] {
    // `next[g]` is where the next object of group `g` goes.
    let next = UnsafeMutablePointer<UnsafeMutablePointer<Object>>.allocate(capacity: counts.count)
    defer { next.deallocate() }

    func copyObjects() {
        var position = 0
        for section in sections {
            section.objects.withChunks { objects in
                guard let base = objects.baseAddress else { return }
                for offset in 0..<objects.count {
                    let group = Int(groupOf[position + offset])
                    next[group].initialize(to: base[offset])
                    next[group] += 1
                }
                position += objects.count
            }
        }
    }

    guard order.count > maxDirectScatterGroups else {
        // Open the arrays of order[level...] one inside the other, copy at the innermost
        // level, and collect them as the calls return (innermost first).
        var reversed: [[Object]] = []
        reversed.reserveCapacity(order.count)
        func open(_ level: Int) {
            guard level < order.count else { return copyObjects() }
            let group = order[level]
            let count = counts[group]
            let array = [Object](unsafeUninitializedCapacity: count) { buffer, initialized in
                next[group] = buffer.baseAddress!
                open(level + 1)
                initialized = count
            }
            reversed.append(array)
        }
        open(0)
        return reversed.reversed()
    }

    // Many groups: copy into one buffer laid out group by group, then move each group out.
    let total = counts.reduce(0, +)
    let grouped = UnsafeMutablePointer<Object>.allocate(capacity: total)
    defer { grouped.deallocate() }
    var end = grouped
    for group in order {
        next[group] = end
        end += counts[group]
    }
    copyObjects()
    var start = grouped
    return order.map { group in
        let count = counts[group]
        let source = start
        start += count
        return [Object](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress!.moveInitialize(from: source, count: count)
            initialized = count
        }
    }
}
