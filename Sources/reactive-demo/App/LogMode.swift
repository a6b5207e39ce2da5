import Foundation
import ReactiveSources
import Signals

/// The non-interactive run (stdout is not a terminal, or `--log`): prints each section's
/// load events and a few demonstrated interactions, then the final table, and exits.
struct LogMode {
    let controller: DemoController
    let options: DemoOptions

    private var model: DemoModel { controller.model }

    func run() async -> Int32 {
        let started = ContinuousClock.now
        let output = LineOutput()
        @Sendable func log(_ text: String) {
            let elapsed = ContinuousClock.now - started
            let milliseconds = elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            output.print(String(format: "[%6.3fs] ", Double(milliseconds) / 1_000) + text)
        }
        var subscriptions: [Subscription] = []
        func watch(_ source: some DataSource) {
            subscriptions.append(source.loadEvents.observe { event in
                log("\(source.name): \(Self.describe(event)) (\(source.snapshot.objectCount) objects)")
            })
        }
        watch(model.lines)
        watch(model.feed)
        watch(model.photos)
        defer { subscriptions.forEach { $0.cancel() } }

        log("fetching every section")
        model.start()
        await waitUntil { !model.multi.loadState.value.isFetching }
        log("all sections settled: \(model.multi.contentState.value)")

        while model.feed.pagination.value.loadedPages < options.pages && model.feed.hasMorePages {
            log("next page (key n)")
            model.feed.fetchNextPage()
            await waitUntil { !model.feed.pagination.value.isLoadingNextPage }
        }

        log("inject a failure (key e), then next page")
        model.failureInjector.failNextRequest()
        model.feed.fetchNextPage()
        await waitUntil { !model.feed.pagination.value.isLoadingNextPage }
        if let error = model.feed.pagination.value.nextPageError {
            log("next page failed, content kept: \(error.message)")
        }

        log("select poem lines 1, 2, 3 (policy: at least 1, at most 2)")
        for item in 0..<3 {
            try? model.selection.select(at: IndexPath(item: item, section: 0))
        }
        let selected = model.selection.selectedObjects.map(\.text)
        log("selected: \(selected.joined(separator: " | "))")

        output.print("")
        for line in controller.frame(width: 80, spinnerFrame: 0) {
            output.print(line)
        }
        if model.feed.loadState.value.error != nil && options.url != nil {
            return 1
        }
        return 0
    }

    private func waitUntil(_ condition: @Sendable () -> Bool) async {
        while !condition() {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    static func describe(_ event: LoadEvent) -> String {
        switch event {
        case .willLoad: "will load"
        case .didPartiallyLoad: "partially loaded"
        case .didFinishLoading: "finished"
        case .didFail(let error): "failed: \(error.message)"
        }
    }
}

/// Serialises whole lines to stdout.
final class LineOutput: @unchecked Sendable {
    private let lock = NSLock()

    func print(_ line: String) {
        lock.withLock {
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }
}
