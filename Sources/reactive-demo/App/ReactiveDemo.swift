import Foundation
import ReactiveSources

/// `swift run reactive-demo`: a Multi data source watched live in the terminal, or logged
/// when stdout is not a terminal.
@main
enum ReactiveDemo {
    /// Parses the flags, checks `--url` if given, then runs the interactive or the log mode
    /// and exits with its status (2 for bad flags, 1 for an unusable `--url`).
    static func main() {
        let options: DemoOptions
        do {
            options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            fail(error.description, status: 2)
        }
        if options.showHelp {
            print(DemoOptions.help)
            return
        }
        guard let poem = Bundle.module.url(forResource: "poem", withExtension: "txt") else {
            fail("the bundled poem.txt is missing", status: 1)
        }
        let model = DemoModel(options: options, poemURL: poem)
        let controller = DemoController(model: model)
        let interactive = !options.forceLog && Terminal.isInteractive
        let logStatus: Int32? = runBlocking {
            if let url = options.url, let problem = await probe(model.feedFetcher) {
                fail("cannot use --url \(url.absoluteString): \(problem)", status: 1)
            }
            return interactive ? nil : await LogMode(controller: controller, options: options).run()
        }
        exit(logStatus ?? InteractiveMode(controller: controller).run())
    }

    /// Fetches the first page once; returns why it failed, or `nil` if it worked.
    static func probe(_ fetcher: HTTPPageFetcher<FeedPost>) async -> String? {
        do {
            _ = try await fetcher.fetchPage(.first)
            return nil
        } catch {
            return DataSourceError(error).message
        }
    }

    /// Prints `reactive-demo: message` to stderr and exits with `status`.
    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("reactive-demo: \(message)\n".utf8))
        exit(status)
    }
}
