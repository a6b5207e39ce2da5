import BenchCases
import Foundation

// Runs every comparison side by side and prints a markdown table of medians and ratios.
//   reactive-bench [--smoke] [--filter TEXT] [--iterations N]
// Exits 1 if our side fails a correctness count (peers' extra runs are only reported).

let config = BenchConfig.fromEnvironment()
let clock = ContinuousClock()
let started = clock.now
print("reactive-bench\(config.smoke ? " --smoke" : ""): medians of \(config.smoke ? "a few" : "many") samples; ratios within this run.\n")
let results = await Runner.all(config: config) { name in
    FileHandle.standardError.write(Data("running \(name)...\n".utf8))
}
print(Report.markdown(results))
let twoGraphs = Runner.twoGraphs(config: config)
if !twoGraphs.isEmpty {
    print(twoGraphs)
}
let derived = Runner.derived(config: config) { name in
    FileHandle.standardError.write(Data("running \(name)...\n".utf8))
}
if !derived.isEmpty {
    print("Derived sources (issue 20):\n")
    print(derived)
}
print("total time: \((clock.now - started).pretty)")
let incorrect = results.filter { !$0.oursIsCorrect }
if !incorrect.isEmpty {
    print("OUR SIDE IS INCORRECT in: " + incorrect.map(\.name).joined(separator: ", "))
    exit(1)
}
