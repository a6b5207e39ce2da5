import ReactiveSourcesTesting
import Testing

@Suite("ManualClock")
struct ManualClockTests {
    @Test(.timeLimit(.minutes(10)))
    func sleepersWakeInDeadlineOrderWhenTimeReachesThem() async throws {
        let clock = ManualClock()
        let woken = Locked<[Int]>([])
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self)
        await withThrowingTaskGroup(of: Void.self) { group in
            for seconds in [3, 1, 2] {
                group.addTask {
                    try await clock.sleep(until: clock.now.advanced(by: .seconds(seconds)))
                    woken.withLock { $0.append(seconds) }
                    wake.yield()
                }
            }
            await clock.waitForSleepers(3)
            clock.advance(by: .milliseconds(1500))
            // Wait for the woken sleeper's task to have run.
            var iterator = wakes.makeAsyncIterator()
            await iterator.next()
            #expect(clock.sleeperCount == 2)
            clock.advance(to: ManualClock.Instant(offset: .seconds(3)))
            try? await group.waitForAll()
        }
        #expect(woken.withLock { $0 }.first == 1)
        #expect(Set(woken.withLock { $0 }) == [1, 2, 3])
        #expect(clock.now.offset == .seconds(3))
    }

    @Test(.timeLimit(.minutes(10)))
    func aCancelledSleepThrowsAtOnce() async {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
        try? await clock.sleep(until: clock.now)
        #expect(clock.now.offset == .zero, "a deadline already reached returns at once")
    }

    @Test(.timeLimit(.minutes(10)))
    func waitForNoSleepersReturnsOnceTheLastSleepEnds() async {
        let clock = ManualClock()
        await clock.waitForNoSleepers()  // none yet: at once
        let cancelled = Task { try await clock.sleep(for: .seconds(60)) }
        let woken = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(2)
        let waiter = Task { await clock.waitForNoSleepers() }
        cancelled.cancel()
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        await waiter.value
        #expect(clock.sleeperCount == 0)
        _ = try? await woken.value
    }
}
