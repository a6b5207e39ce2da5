import BenchCases
for layers in [5, 10, 20, 40, 80] {
    let bench = combineCellx(layers: layers)
    let clock = ContinuousClock()
    let t = clock.now
    let extra = bench.run()
    print("combine cellx", layers, extra, clock.now - t)
}
for shape in Shape.allCases {
    for (name, make) in [("signals", signalsGraph), ("floor", floorGraph), ("combine", combineGraph)] as [(String, (Shape) -> GraphBench)] {
        let bench = make(shape)
        var extra = 0
        let m = measure(name, iterations: 5) { extra += bench.run() }
        print(shape.title, name, m.median.pretty, extra)
    }
}
