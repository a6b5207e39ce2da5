import Foundation
import Signals
import Testing
import ReactiveSources

@Suite("Chains")
struct ChainTests {
    struct Photo: Hashable, Sendable, Identifiable {
        var id: Int
        var album: String
        var date: Int
        var isFavourite: Bool
    }

    static let photos = [
        Photo(id: 1, album: "Rome", date: 5, isFavourite: true),
        Photo(id: 2, album: "Oslo", date: 3, isFavourite: false),
        Photo(id: 3, album: "Rome", date: 1, isFavourite: true),
        Photo(id: 4, album: "Oslo", date: 2, isFavourite: true),
    ]

    @Test func aChainShowsSectionsWithTitlesAndForwardsLoadState() {
        let source = SimpleDataSource(name: "photos", objects: Self.photos)
        let chain = source.filter(\.isFavourite).sorted(by: \.date).sectioned(by: \.album)
        #expect(chain.name == "photos")
        #expect(chain.snapshot.sections.map(\.title) == ["Rome", "Oslo"])
        #expect(chain.snapshot.sections.map { $0.objects.map(\.id) } == [[3, 1], [4]])
        #expect(chain.loadState.value.status == .idle)
        chain.fetchData()
        #expect(source.loadState.value.status == .finished)
        #expect(chain.loadState.value == source.loadState.value)
        source.append([Photo(id: 5, album: "Bern", date: 0, isFavourite: true)])
        #expect(chain.snapshot.sections.map(\.title) == ["Bern", "Rome", "Oslo"])
    }

    @Test func compactMapSkipsNil() {
        let source = SimpleDataSource(name: "n", objects: [1, 2, 3, 4])
        let halves = source.compactMap { $0.isMultiple(of: 2) ? $0 / 2 : nil }
        #expect(halves.snapshot.allObjects == [1, 2])
        source.append([6])
        #expect(halves.snapshot.allObjects == [1, 2, 3])
    }

    @Test func composedMakesAMultiOfTheChains() {
        let source = SimpleDataSource(name: "photos", objects: Self.photos)
        let favourites = source.filter(\.isFavourite)
        let others = source.filter { !$0.isFavourite }
        let multi = favourites.composed(with: others, name: "all")
        #expect(multi.children.count == 2)
        #expect(multi.snapshot.sections.count == 2)
        #expect(multi.snapshot.sections.map { $0.objects.map(\.id) } == [[1, 3, 4], [2]])
    }

    @Test func aChainNobodyHoldsIsFreed() {
        let source = SimpleDataSource(name: "photos", objects: Self.photos)
        weak var weakFilter: DerivedDataSource<Photo, Photo>?
        weak var weakSorted: DerivedDataSource<Photo, Photo>?
        weak var weakSectioned: SectionedDataSource<Photo, String>?
        do {
            let filtered = source.filter(\.isFavourite)
            let sorted = filtered.sorted(by: \.date)
            let sectioned = sorted.sectioned(by: \.album)
            weakFilter = filtered
            weakSorted = sorted
            weakSectioned = sectioned
            let subscription = sectioned.updates.observe { _ in }
            source.append([Photo(id: 9, album: "Rome", date: 9, isFavourite: true)])
            #expect(sectioned.snapshot.allObjects.count == 4)
            subscription.cancel()
        }
        #expect(weakFilter == nil)
        #expect(weakSorted == nil)
        #expect(weakSectioned == nil)
        // The root keeps working without them.
        source.append([Photo(id: 10, album: "Rome", date: 10, isFavourite: true)])
        #expect(source.objects.count == 6)
    }
}

/// Key paths are read as a load at a stored property's offset when `MemoryLayout` gives one,
/// and by the runtime otherwise: each kind must read the same values.
@Suite("Chains: key paths of every kind")
struct ChainKeyPathTests {
    struct Place: Hashable, Sendable { var city: String; var floor: Int }
    struct Room: Hashable, Sendable, Identifiable {
        var id: Int
        var place: Place
        var name: String
        /// A computed property: no offset, read by the runtime.
        var label: String { "\(name)-\(id)" }
    }
    final class Guest: Hashable, Sendable, Identifiable {
        let id: Int
        let city: String
        init(id: Int, city: String) { self.id = id; self.city = city }
        static func == (lhs: Guest, rhs: Guest) -> Bool { lhs.id == rhs.id && lhs.city == rhs.city }
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    static func rooms(_ range: Range<Int>) -> [Room] {
        range.map { Room(id: $0, place: Place(city: ["Rome", "Oslo", "Bern"][$0 % 3] + String(repeating: "x", count: $0 % 2 * 20), floor: ($0 * 7) % 5), name: "r\(($0 * 13) % 11)") }
    }

    @Test func storedNestedAndComputedKeyPathsSortAndGroupAsClosuresDo() {
        let source = SimpleDataSource(name: "rooms", objects: Self.rooms(0..<40))
        let byFloor = source.sorted(by: \.place.floor)
        let byLabel = source.sorted(by: \.label)
        let byName = source.sorted(by: \.name)
        let byCity = source.sectioned(by: \.place.city, sectionOrder: .ascending)
        let byCityDirect = SectionedDataSource(child: source, keyPath: \Room.place.city, sectionOrder: .ascending)
        for step in 0..<3 {
            let all = source.snapshot.allObjects
            #expect(byFloor.snapshot.allObjects.map(\.id) == all.sorted { $0.place.floor < $1.place.floor }.map(\.id), "step \(step)")
            #expect(byLabel.snapshot.allObjects.map(\.id) == all.sorted { $0.label < $1.label }.map(\.id), "step \(step)")
            #expect(byName.snapshot.allObjects.map(\.id) == all.sorted { $0.name < $1.name }.map(\.id), "step \(step)")
            let cities = Set(all.map(\.place.city)).sorted()
            for grouped in [byCity.snapshot, byCityDirect.snapshot] {
                #expect(grouped.sections.map(\.title) == cities, "step \(step)")
                #expect(grouped.sections.map { $0.objects.map(\.id) } == cities.map { city in all.filter { $0.place.city == city }.map(\.id) }, "step \(step)")
            }
            source.append(Self.rooms((40 + step * 10)..<(50 + step * 10)))
        }
    }

    @Test func classObjectsAreReadThroughTheRuntime() {
        let source = SimpleDataSource(name: "guests", objects: (0..<20).map { Guest(id: $0, city: ["Rome", "Oslo"][$0 % 2]) })
        let sorted = source.sorted(by: \.city)
        let grouped = source.sectioned(by: \.city, sectionOrder: .ascending)
        #expect(sorted.snapshot.allObjects.map(\.city) == Array(repeating: "Oslo", count: 10) + Array(repeating: "Rome", count: 10))
        #expect(grouped.snapshot.sections.map(\.title) == ["Oslo", "Rome"])
        #expect(grouped.snapshot.sections.map(\.objects.count) == [10, 10])
    }
}
