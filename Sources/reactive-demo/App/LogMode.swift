import Foundation
import ReactiveSources
import Signals

/// The non-interactive run (stdout is not a terminal, or `--log`): prints each section's
/// load events and what each demonstrated key does, then the final table, and exits.
struct LogMode {
    /// The state driven and rendered.
    let controller: DemoController
    /// The flags (pages to load; whether `--url` is used).
    let options: DemoOptions

    /// Where the log and the table go.
    private let output = LineOutput()
    /// The sources driven.
    private var model: DemoModel { controller.model }

    /// Runs the scripted session and returns the exit status: 0, or 1 when a feed page
    /// failed (the run then stops paging, prints the table and reports the error on stderr).
    /// No page is requested twice: a failure is reported, never retried.
    func run() async -> Int32 {
        let subscriptions = [watch(model.lines), watch(model.feed), watch(model.photos)]
        defer { subscriptions.forEach { $0.cancel() } }

        log("fetching every section")
        model.start()
        await Self.wait(for: model.multi.loadState) { !$0.isFetching }
        log("all sections settled: \(model.multi.contentState.value)")
        var failure = model.feed.loadState.value.error.map { "the feed's first page failed: \($0.message)" }

        // At most one request per page asked for: each round must load a page or it ends the run.
        var attempts = 0
        while failure == nil && attempts < options.pages && model.feed.pagination.value.loadedPages < options.pages && model.feed.hasMorePages {
            attempts += 1
            let loaded = model.feed.pagination.value.loadedPages
            log("next page (key n)")
            model.feed.fetchNextPage()
            await Self.wait(for: model.feed.pagination) { !$0.isLoadingNextPage }
            log("feed: \(pageSummary)")
            let pagination = model.feed.pagination.value
            if let error = pagination.nextPageError {
                failure = "the feed's page \(loaded + 1) failed: \(error.message)"
            } else if pagination.loadedPages == loaded {
                failure = "the feed's page \(loaded + 1) did not load"
            }
        }

        // The cancelled refresh and the injected failure are shown on the simulated API only:
        // a real API is paged and nothing else.
        if failure == nil && model.simulatedAPI != nil {
            await demonstrateCancelAndFailure()
        }

        selectPoemLines()

        output.print("")
        for line in controller.frame(width: 80, spinnerFrame: 0) {
            output.print(line)
        }
        guard let failure else { return 0 }
        FileHandle.standardError.write(Data("reactive-demo: \(failure)\n".utf8))
        return 1
    }

    /// Refreshes the feed and cancels it (key r, key c), then fails the next request (key e).
    private func demonstrateCancelAndFailure() async {
        log("refresh the feed (key r) and cancel it (key c)")
        model.feed.fetchData()
        _ = controller.handle(.cancel)
        await Self.wait(for: model.multi.loadState) { !$0.isFetching }
        log("feed: \(pageSummary)")

        log("fail the next fetch (key e)")
        _ = controller.handle(.injectFailure)
        if model.feed.hasMorePages {
            log("next page (key n)")
            model.feed.fetchNextPage()
            await Self.wait(for: model.feed.pagination) { !$0.isLoadingNextPage }
        } else {
            log("refresh the feed (key r)")
            model.feed.fetchData()
            await Self.wait(for: model.feed.loadState) { !$0.isFetching }
        }
        log("feed: \(pageSummary)")
    }

    /// Selects poem lines 1, 2 and 3 (the policy keeps the last two), then deselects both
    /// (the policy refuses the second), logging each result.
    private func selectPoemLines() {
        let policy = DemoModel.poemPolicy
        log("poem selection policy: at least \(policy.minimum), at most \(policy.maximum.map(String.init) ?? "any")")
        for item in 0..<3 {
            select(RowPath(item: item, section: 0), deselecting: false)
        }
        for item in 1..<3 {
            select(RowPath(item: item, section: 0), deselecting: true)
        }
    }

    /// Selects (or deselects) the row at `path` and logs the selection or the refusal.
    private func select(_ path: RowPath, deselecting: Bool) {
        let verb = deselecting ? "deselect" : "select"
        do {
            if deselecting {
                try model.selection.deselect(at: path)
            } else {
                try model.selection.select(at: path)
            }
            let selected = model.selection.selectedPaths.map { "\($0.item + 1)" }
            log("\(verb) poem line \(path.item + 1) (key space): selected lines \(selected.joined(separator: ", "))")
        } catch {
            log("\(verb) poem line \(path.item + 1) (key space) refused: \(DemoController.describe(error, in: model.multi.snapshot))")
        }
    }

    /// Logs `text` with the elapsed time.
    private func log(_ text: String) {
        output.log(text)
    }

    /// Logs `source`'s load events until the subscription is cancelled.
    private func watch(_ source: some DataSource) -> SignalSubscription {
        let output = self.output
        return source.loadEvents.observe { event in
            output.log("\(source.name): \(Self.describe(event, objectCount: source.snapshot.objectCount))")
        }
    }

    /// The feed's pages, objects and next-page state, for the log.
    private var pageSummary: String {
        let status = controller.statusLine()
        let pages = "page \(status.page.map(String.init) ?? "?") of \(status.numberOfPages.map(String.init) ?? "?")"
        return "\(pages), \(Self.count(status.shownResults, "object")), next page \(status.nextPage)"
            + (model.feed.pagination.value.nextPageError.map { " (\($0.message))" } ?? "")
            + (model.feed.loadState.value.error.map { $0.isCancellation ? ", refresh cancelled" : ", refresh failed: \($0.message)" } ?? "")
    }

    /// Returns once `property`'s value satisfies `condition`, checking each new value.
    private static func wait<Value>(for property: Property<Value>, until condition: @Sendable (Value) -> Bool) async {
        for await value in property.values where condition(value) {
            return
        }
    }

    /// `number` and `noun`, plural unless `number` is 1 ("1 object", "2 objects").
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// One load event as a log line.
    static func describe(_ event: LoadEvent, objectCount: Int) -> String {
        switch event {
        case .willLoad: "will load"
        case .didPartiallyLoad: "partially loaded (\(count(objectCount, "object")))"
        case .didFinishLoading: "finished (\(count(objectCount, "object")))"
        case .didFail(let error): "failed: \(error.message)"
        }
    }
}
