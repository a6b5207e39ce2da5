import Foundation
import ReactiveSources

/// `swift run reactive-demo`: a Multi data source watched live in the terminal.
@main
enum ReactiveDemo {
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
        let status = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            defer { done.signal() }
            if let url = options.url {
                do {
                    _ = try await model.feedFetcher.fetchPage(.first)
                } catch {
                    status.value = -1
                    FileHandle.standardError.write(Data("reactive-demo: cannot use --url \(url.absoluteString): \(DataSourceError(error).message)\n".utf8))
                    return
                }
            }
            if options.forceLog || !Terminal.isInteractive {
                status.value = await LogMode(controller: controller, options: options).run()
            }
        }
        done.wait()
        if status.value == -1 { exit(1) }
        if !(options.forceLog || !Terminal.isInteractive) {
            status.value = InteractiveMode(controller: controller).run()
        }
        exit(status.value)
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("reactive-demo: \(message)\n".utf8))
        exit(status)
    }
}

private final class ResultBox: @unchecked Sendable {
    var value: Int32 = 0
}
