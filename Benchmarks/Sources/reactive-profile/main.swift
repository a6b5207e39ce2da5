import BenchCases
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A synchronous driver for profilers (valgrind cannot follow the async `reactive-bench`):
//   reactive-profile <shape> <side> [iterations]
// e.g. `valgrind --tool=callgrind reactive-profile deep ours 200` (strip debug info from a
// copy of the binary first: valgrind 3.19 cannot read Swift 6.3's DWARF).
// Shapes: storage (sides all, Array, RowStorage, Rope), storage-iteration (Array, RowStorage), lookup (side ignored), derived (see below), sectioned (sides ours, baseline, ours-string, baseline-string), http (sides list, list-identified, ours, raw, fetcher, raw-transport, observe), http-turnaround (side all: in-flight and turnaround times a page), http-cpu (sides ours, raw), pages (side list only: the Paginated source over in-memory pages), deep broad diamond triangle mux repeated unstable avoidable cellx1000 create, first (first derivations: mapped, filtered, sorted).
// Sides: ours floor OpenCombine Observation.

/// Runs `body` in a task and blocks until it returns (the top level stays synchronous:
/// valgrind crashes on an async main).
func waitFor(_ body: @escaping @Sendable () async throws -> String) throws -> String {
    final class Outcome: @unchecked Sendable { var result: Result<String, any Error>? }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { outcome.result = .success(try await body()) } catch { outcome.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome.result!.get()
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: reactive-profile <shape> <side> [iterations]")
    exit(2)
}
let iterations = arguments.count > 3 ? Int(arguments[3]) ?? 100 : 100
if arguments[1] == "derived" {
    // reactive-profile derived <kind>[,<op>[,<n>]] [iterations]: issue 20's operations on one
    // source, e.g. `derived sectioned,edit,1000000 20`. Kinds: simple mapped sectioned
    // filtered sorted multi rebuild; ops: append edit insertRemove editBatch insertRemoveBatch,
    // snapshotReads (1,000 reads of `snapshot.objectCount` an iteration, as a list makes them)
    // and objectReads (1,000 `object(at:)` and `row(at:)` reads at random paths of one snapshot).
    let parts = arguments[2].split(separator: ",").map(String.init)
    let kinds: [String: DerivedKind] = [
        "simple": .simple, "mapped": .mapped, "sectioned": .sectioned, "filtered": .filtered,
        "sorted": .sorted, "multi": .multi, "rebuild": .multiRebuild,
    ]
    let ops: [String: DerivedOp] = [
        "append": .append, "edit": .edit, "insertRemove": .insertRemove,
        "editBatch": .editBatch, "insertRemoveBatch": .insertRemoveBatch,
    ]
    if parts.count > 1 && parts[1] == "objectReads", let kind = kinds[parts[0]] {
        print(DerivedCases.profileObjectReads(kind: kind, n: parts.count > 2 ? Int(parts[2]) ?? 1_000 : 1_000, iterations: iterations))
        exit(0)
    }
    if parts.count > 1 && parts[1] == "snapshotReads", let kind = kinds[parts[0]] {
        print(DerivedCases.profileSnapshotReads(kind: kind, n: parts.count > 2 ? Int(parts[2]) ?? 1_000 : 1_000, iterations: iterations))
        exit(0)
    }
    guard let kind = kinds[parts[0]], let op = ops[parts.count > 1 ? parts[1] : "append"] else {
        print("unknown kind or op: \(arguments[2])")
        exit(2)
    }
    let n = parts.count > 2 ? Int(parts[2]) ?? 1_000_000 : 1_000_000
    print(DerivedCases.profile(kind: kind, op: op, n: n, iterations: iterations))
    exit(0)
}
if arguments[1] == "first" {
    // reactive-profile first <kind>[,<n>] [iterations]: the first derivation of a source of
    // that kind (mapped filtered sorted; Sectioned: `sectioned ours`) over a loaded Simple
    // source of n rows.
    let parts = arguments[2].split(separator: ",").map(String.init)
    let kinds: [String: DerivedKind] = ["mapped": .mapped, "filtered": .filtered, "sorted": .sorted]
    guard let kind = kinds[parts[0]] else {
        print("unknown kind: \(parts[0])")
        exit(2)
    }
    print(FirstDerivationCase.profile(kind: kind, n: parts.count > 1 ? Int(parts[1]) ?? 1_000_000 : 1_000_000, iterations: iterations))
    exit(0)
}
if arguments[1] == "sectioned" {
    // 1M objects grouped into 100 sections sorted by key (the Sectioned bench's first snapshot).
    print(SectionedCase.profile(iterations: iterations, baseline: arguments[2].hasPrefix("baseline"), stringKeys: arguments[2].hasSuffix("-string")))
    exit(0)
}
if arguments[1] == "http" || arguments[1] == "http-turnaround" {
    // 100 pages x 50 from the fixture server; sides as listed above. For `perf stat` /
    // `perf record` (the time includes the server's; compare CPU time of this process).
    // FIXTURE_URL=http://127.0.0.1:<port> uses a server started by hand (needed under valgrind).
    let server: FixtureServer
    if let running = ProcessInfo.processInfo.environment["FIXTURE_URL"].flatMap(URL.init(string:)) {
        server = FixtureServer(running: running)
    } else {
        guard let script = FixtureServer.locateScript() else { print("fixture server not found"); exit(2) }
        server = try FixtureServer(script: script)
    }
    if arguments[1] == "http-turnaround" {
        // Per page: time in flight and the turnaround (split at the decoded page and at the
        // list's observer) for list, list-identified, fetcher and raw-transport.
        print(try waitFor { try await TurnaroundProfile.run(server: server, iterations: iterations) })
    } else {
        print(try waitFor { try await HTTPCase.profile(server: server, side: arguments[2], iterations: iterations) })
    }
    server.stop()
    exit(0)
}
if arguments[1] == "http-cpu" {
    // The CPU part of one page, no socket: the fetcher over a canned response vs JSONDecoder.
    print(try waitFor { try await HTTPCase.profileCPU(side: arguments[2], pages: iterations) })
    exit(0)
}
if arguments[1] == "pages" {
    // The Paginated source alone: 100 in-memory pages a run, driven as a list drives it.
    // Sides: list, list-identified, list-holding, loop; a -cold[=bytes] suffix evicts the
    // caches before each page.
    let name = arguments[2].split(separator: "-cold", maxSplits: 1).first.map(String.init) ?? ""
    guard let side = SourcePagesProfile.Side(rawValue: name) else { print("pages sides: list, list-identified, list-holding, loop, with -cold[=bytes]"); exit(2) }
    let evicting = arguments[2].contains("-cold") ? Int(arguments[2].split(separator: "=").last ?? "") ?? 4 << 20 : 0
    print(try waitFor { try await SourcePagesProfile.run(side, iterations: iterations, evicting: evicting) })
    exit(0)
}
if arguments[1] == "storage" {
    // Row storage vs Array vs swift-collections Rope at 1k, 100k, 1M rows (side: all, or one
    // of Array, RowStorage, Rope); iterations = timed samples per edit case.
    let sides: Set<String>? = arguments[2] == "all" ? nil : [arguments[2]]
    let sizes = ProcessInfo.processInfo.environment["STORAGE_SIZES"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1_000, 100_000, 1_000_000]
    print(StorageCase.run(sizes: sizes, iterations: arguments.count > 3 ? iterations : 101, sides: sides) { FileHandle.standardError.write(Data("\($0)...\n".utf8)) })
    exit(0)
}
if arguments[1] == "lookup" {
    // path(of:) after every append of 10 (LookupCase), at 1k, 100k, 1M rows (or STORAGE_SIZES).
    let sizes = ProcessInfo.processInfo.environment["STORAGE_SIZES"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? [1_000, 100_000, 1_000_000]
    print(LookupCase.run(sizes: sizes))
    exit(0)
}
if arguments[1] == "storage-reads" {
    // Random reads only (see StorageCase.reads): side Array, RowStorage or RowStorage-inserted;
    // STORAGE_SIZES picks n (first value), iterations = passes of 100,000 reads (x7).
    let n = ProcessInfo.processInfo.environment["STORAGE_SIZES"].flatMap { $0.split(separator: ",").first.flatMap { Int($0) } } ?? 1_000_000
    print("\(arguments[2]) n=\(n): \(StorageCase.reads(side: arguments[2], n: n, passes: iterations)) ns a read")
    exit(0)
}
if arguments[1] == "storage-iteration" {
    // `for in` only (see StorageCase.iteration): side Array or RowStorage; STORAGE_SIZES picks
    // n (first value), iterations = passes a sample (31 samples).
    let n = ProcessInfo.processInfo.environment["STORAGE_SIZES"].flatMap { $0.split(separator: ",").first.flatMap { Int($0) } } ?? 1_000
    print("\(arguments[2]) n=\(n): \(StorageCase.iteration(side: arguments[2], n: n, passes: iterations)) ns a row")
    exit(0)
}
if arguments[1] == "create" {
    switch arguments[2] {
    case "ours": print(Creation.signals(count: 100_000, iterations: iterations).measurement.note ?? "")
    case "floor": print(Creation.floor(count: 100_000, iterations: iterations).measurement.note ?? "")
    default: print("unknown side")
    }
    exit(0)
}
guard let shape = Shape(rawValue: arguments[1]), let side = GraphSide(rawValue: arguments[2]), let bench = side.make(shape) else {
    print("unknown shape or side")
    exit(2)
}
var extra = 0
for _ in 0..<iterations { extra += bench.run() }
print("\(shape.rawValue) \(side.rawValue): \(iterations) iterations, \(extra) extra runs")
