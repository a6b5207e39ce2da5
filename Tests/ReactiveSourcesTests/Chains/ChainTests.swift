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
