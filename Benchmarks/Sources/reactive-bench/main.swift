import BenchCases
for shape in Shape.allCases {
    let bench = signalsGraph(shape)
    let m = measure("signals", iterations: 5) { _ = bench.run() }
    print(shape.title, m.median.pretty)
}
