import Foundation

/// The state of a ``Selection``: the selected rows of one update of the source, per section
/// id, each with its object's identity, moved from update to update through the change sets.
///
/// Touched only while the Signals graph is locked (from the selection's derived property and
/// from the body of a `modify`), so no two calls ever overlap.
/// One selected row of a ``SelectionCore``: its object's identity and its path.
struct SelectedRow {
    var key: AnyHashable
    var path: RowPath
}

final class SelectionCore<Object: Hashable & Sendable>: @unchecked Sendable {
    /// One selected row (not nested in this generic class, so the tables of them are
    /// compiled for their concrete type).
    typealias Entry = SelectedRow

    /// An object's identity: its `id` for `Identifiable` objects, else the object itself.
    private let identity: (Object) -> AnyHashable = makeIdentity()
    private let policyFor: @Sendable (_ sectionID: String) -> SelectionPolicy
    /// Each section's rules, asked once per section id.
    private var policies: [String: SelectionPolicy] = [:]
    /// The source update the paths refer to.
    private(set) var update: SnapshotUpdate<Object>
    /// Per section id: the selected rows, oldest selection first.
    private var chosen: [String: [Entry]] = [:]
    private var revision: UInt64 = 0
    /// How many times the selection was looked up again by identity (for tests).
    private(set) var lookups = 0
    private var cached: SelectedSnapshot<Object>?

    init(update: SnapshotUpdate<Object>, policy: @escaping @Sendable (_ sectionID: String) -> SelectionPolicy) {
        self.update = update
        policyFor = policy
        for section in update.snapshot.sections.indices { topUp(section) }
    }

    /// The current snapshot and selection. O(selected × log selected) after a change, O(1) otherwise.
    var value: SelectedSnapshot<Object> {
        if let cached { return cached }
        var paths: [RowPath] = []
        for entries in chosen.values { for entry in entries { paths.append(entry.path) } }
        paths.sort()
        let value = SelectedSnapshot(update: update, selectedPaths: paths, revision: revision)
        cached = value
        return value
    }

    // MARK: - Following the source

    /// Moves the selection onto `next`: through its change set since the current update
    /// (O(change + selected × log n)), or, when that cannot be had or does not fit, by finding
    /// the selected identities again in their sections (O(size of those sections)).
    /// Then tops up the sections that need it (see ``SelectionPolicy/Preselection``).
    func follow(_ next: SnapshotUpdate<Object>) {
        guard next.version != update.version else { return }
        let old = update
        update = next
        cached = nil
        if next.version > old.version,
           let changes = next.version == old.version &+ 1 ? next.changes : next.changes(since: old.version) {
            if chosen.isEmpty {
                for section in PathTranslation.sectionsGainingRows(changes) { topUp(section) }
                return
            }
            if !replacesSelectedSections(changes, old: old.snapshot),
               let translation = PathTranslation(changes, oldSectionCount: old.snapshot.sections.count),
               let shrunk = moveEntries(through: translation) {
                for section in PathTranslation.sectionsGainingRows(changes).union(shrunk) { topUp(section) }
                return
            }
        }
        refind()
    }

    /// Whether `changes` deletes a section with selected rows that the new snapshot still has
    /// (by id): a source that replaced its sections rather than edit them (a large change),
    /// whose selection is then looked up again rather than dropped. O(deleted sections +
    /// sections when one is selected).
    private func replacesSelectedSections(_ changes: ChangeSet, old: Snapshot<Object>) -> Bool {
        let selectedIDs = changes.deletedSections.compactMap { index in
            old.sections.indices.contains(index) && chosen[old.sections[index].id] != nil ? old.sections[index].id : nil
        }
        guard !selectedIDs.isEmpty else { return false }
        let ids = Set(update.snapshot.sections.lazy.map { $0.id })
        return selectedIDs.contains(where: ids.contains)
    }

    /// Moves every entry to its new path; drops deleted rows. Returns the new indexes of the
    /// sections that lost entries, or `nil` (nothing changed) when a moved entry does not
    /// land on an object with its identity (or, for a row updated in place, any object).
    private func moveEntries(through translation: PathTranslation) -> Set<Int>? {
        let sections = update.snapshot.sections
        var moved: [String: [Entry]] = [:]
        var shrunk = Set<Int>()
        // The section last read (entries of one id are usually all in one section).
        var sectionIndex = -1
        var section = SnapshotSection<Object>()
        for (id, entries) in chosen {
            var kept: [Entry] = []
            kept.reserveCapacity(entries.count)
            for entry in entries {
                guard let path = translation.newPath(ofOld: entry.path) else {
                    if let section = translation.newSection(ofOld: entry.path.section) { shrunk.insert(section) }
                    continue
                }
                if path.section != sectionIndex {
                    guard sections.indices.contains(path.section) else { return nil }
                    sectionIndex = path.section
                    section = sections[path.section]
                }
                guard path.item >= 0, path.item < section.objects.count else { return nil }
                let key = identity(section.objects[path.item])
                guard key == entry.key || translation.updated.contains(path) else { return nil }
                // A row moved to another section leaves the selection (each section has its rules).
                guard section.id == id else {
                    if let section = translation.newSection(ofOld: entry.path.section) { shrunk.insert(section) }
                    continue
                }
                kept.append(Entry(key: key, path: path))
            }
            if !kept.isEmpty { moved[id] = kept }
        }
        chosen = moved
        if !shrunk.isEmpty { revision &+= 1 }
        return shrunk
    }

    /// Finds the selected identities again in their sections (by section id), in row order
    /// for repeated identities; drops those not found, then tops up every section.
    private func refind() {
        lookups += 1
        let sections = update.snapshot.sections
        var found: [String: [Entry]] = [:]
        var lost = false
        for (index, section) in sections.enumerated() {
            guard let entries = chosen[section.id], found[section.id] == nil else { continue }
            // Per identity, the entries still looking for a row, in row order of their old paths.
            var wanted: [AnyHashable: [Int]] = [:]
            for (position, entry) in entries.enumerated().sorted(by: { $0.element.path < $1.element.path }) {
                wanted[entry.key, default: []].append(position)
            }
            var paths = [RowPath?](repeating: nil, count: entries.count)
            var remaining = entries.count
            var item = 0
            let objects = section.objects
            while remaining > 0 && item < objects.count {
                let key = identity(objects[item])
                if var positions = wanted[key], !positions.isEmpty {
                    paths[positions.removeFirst()] = RowPath(item: item, section: index)
                    wanted[key] = positions
                    remaining -= 1
                }
                item += 1
            }
            var kept: [Entry] = []
            for (position, entry) in entries.enumerated() {
                if let path = paths[position] { kept.append(Entry(key: entry.key, path: path)) }
            }
            if kept.count != entries.count { lost = true }
            found[section.id] = kept
        }
        if found.count != chosen.count { lost = true }
        chosen = found.filter { !$0.value.isEmpty }
        if lost { revision &+= 1 }
        for index in sections.indices { topUp(index) }
    }

    /// Selects the first unselected objects of `section` until its minimum is reached, if its
    /// policy preselects. O(minimum + selected in the section).
    private func topUp(_ section: Int) {
        let sections = update.snapshot.sections
        guard sections.indices.contains(section) else { return }
        let id = sections[section].id
        let rules = policy(forSection: id)
        guard rules.preselection == .first, rules.maximum != 0 else { return }
        var entries = chosen[id] ?? []
        guard entries.count < rules.minimum else { return }
        let objects = sections[section].objects
        let taken = Set(entries.lazy.filter { $0.path.section == section }.map { $0.path.item })
        let before = entries.count
        var item = 0
        while entries.count < rules.minimum && item < objects.count {
            if !taken.contains(item) {
                entries.append(Entry(key: identity(objects[item]), path: RowPath(item: item, section: section)))
            }
            item += 1
        }
        guard entries.count > before else { return }
        chosen[id] = entries
        changed()
    }

    // MARK: - Edits

    /// Selects the object at `path` (see ``Selection/select(at:)``).
    func select(at path: RowPath) throws(SelectionError) {
        let object = try resolve(path)
        let id = update.snapshot.sections[path.section].id
        let rules = policy(forSection: id)
        if rules.maximum == 0 { throw .notSelectable(section: path.section) }
        var entries = chosen[id] ?? []
        guard !entries.contains(where: { $0.path == path }) else { return }
        entries.append(Entry(key: identity(object), path: path))
        if let maximum = rules.maximum, entries.count > maximum { entries.removeFirst(entries.count - maximum) }
        chosen[id] = entries
        changed()
    }

    /// Deselects the object at `path` (see ``Selection/deselect(at:)``).
    func deselect(at path: RowPath) throws(SelectionError) {
        _ = try resolve(path)
        let id = update.snapshot.sections[path.section].id
        guard var entries = chosen[id], let position = entries.firstIndex(where: { $0.path == path }) else { return }
        let rules = policy(forSection: id)
        guard entries.count > rules.minimum else { throw .belowMinimum(section: path.section, minimum: rules.minimum) }
        entries.remove(at: position)
        chosen[id] = entries.isEmpty ? nil : entries
        changed()
    }

    /// Whether the row at `path` is selected.
    func isSelected(at path: RowPath) -> Bool {
        value.isSelected(at: path)
    }

    /// Clears every section, then tops up the sections whose policy preselects.
    func clear() {
        if !chosen.isEmpty {
            chosen = [:]
            changed()
        }
        for section in update.snapshot.sections.indices { topUp(section) }
    }

    // MARK: - Helpers

    private func changed() {
        revision &+= 1
        cached = nil
    }

    private func policy(forSection id: String) -> SelectionPolicy {
        if let rules = policies[id] { return rules }
        let rules = policyFor(id)
        policies[id] = rules
        return rules
    }

    private func resolve(_ path: RowPath) throws(SelectionError) -> Object {
        guard let row = update.snapshot.row(at: path) else { throw .invalidPath(path) }
        guard let object = row.object else { throw .placeholderRow(path) }
        return object
    }

    /// An object's identity: its `id` when `Object` is `Identifiable`, else the object.
    private static func makeIdentity() -> (Object) -> AnyHashable {
        guard let identifiable = Object.self as? any Identifiable.Type else { return { AnyHashable($0) } }
        return identityByID(identifiable)
    }

    private static func identityByID<Identified: Identifiable>(_: Identified.Type) -> (Object) -> AnyHashable {
        precondition(Object.self == Identified.self)
        return { object in AnyHashable(unsafeBitCast(object, to: Identified.self).id) }
    }
}
