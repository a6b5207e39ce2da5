import Dispatch
import Testing
@testable import Signals

/// Sets ``SignalsDiagnostics/handler`` to record into `diagnostics` while `body` runs.
private func recordingDiagnostics(_ body: (Recorder<SignalsDiagnostic>) -> Void) {
    let diagnostics = Recorder<SignalsDiagnostic>()
    let previous = SignalsDiagnostics.handler
    SignalsDiagnostics.handler = { diagnostics.append($0) }
    defer { SignalsDiagnostics.handler = previous }
    body(diagnostics)
}

@Suite("Feedback loops are reported, not run forever", .serialized)
struct FeedbackLoopTests {
    @Test func anObserverThatKeepsWritingWhatItObservesIsStoppedAndReported() {
        recordingDiagnostics { diagnostics in
            let property = MutableProperty(0)
            let calls = Counter()
            let subscription = property.observe(emitsCurrentValue: false) { value in
                calls.increment()
                property.value = value + 1
            }
            property.value = 1
            #expect(calls.value == SignalsDiagnostics.feedbackLoopLimit)
            #expect(diagnostics.values == [.feedbackLoop(calls: SignalsDiagnostics.feedbackLoopLimit)])
            #expect(property.value == SignalsDiagnostics.feedbackLoopLimit + 1)
            // Still subscribed: the next write starts a new run.
            property.value = -5
            #expect(calls.value == 2 * SignalsDiagnostics.feedbackLoopLimit)
            #expect(diagnostics.count == 2)
            subscription.cancel()
        }
    }

    @Test func twoObserversFeedingEachOtherAreStopped() {
        recordingDiagnostics { diagnostics in
            let a = MutableProperty(0)
            let b = MutableProperty(0)
            let subscriptions = [
                a.observe(emitsCurrentValue: false) { b.value = $0 + 1 },
                b.observe(emitsCurrentValue: false) { a.value = $0 + 1 },
            ]
            a.value = 1
            #expect(diagnostics.count == 1)
            #expect(a.value > SignalsDiagnostics.feedbackLoopLimit)
            _ = subscriptions
        }
    }

    @Test func aSignalObserverThatKeepsSendingToItsOwnSignalIsStopped() {
        recordingDiagnostics { diagnostics in
            let (signal, input) = Signal<Int>.pipe()
            let calls = Counter()
            let subscription = signal.observe { value in
                calls.increment()
                input.send(value + 1)
            }
            input.send(0)
            #expect(calls.value == SignalsDiagnostics.feedbackLoopLimit)
            #expect(diagnostics.count == 1)
            input.send(0)
            #expect(calls.value == 2 * SignalsDiagnostics.feedbackLoopLimit, "later sends are delivered again")
            _ = subscription
        }
    }

    @Test func aBoundedFeedbackIsNotALoop() {
        recordingDiagnostics { diagnostics in
            let property = MutableProperty(0)
            let subscription = property.observe { value in
                if value < 1_000 { property.value = value + 1 }
            }
            #expect(property.value == 1_000)
            #expect(diagnostics.count == 0)
            _ = subscription
        }
    }
}

/// Writes and sends from other threads while a report runs.
extension FeedbackLoopTests {
    /// A write from another thread while the feedback-loop report runs is delivered: the
    /// stopped observer's call has ended before the report, so that thread's delivery calls
    /// it (it does not leave a note for a call that will not come back).
    @Test func aWriteFromAnotherThreadDuringTheReportIsDelivered() async {
        let property = MutableProperty(0)
        let seen = Recorder<Int>()
        let subscription = property.observe(emitsCurrentValue: false) { value in
            seen.append(value)
            if value >= 0 { property.value = value + 1 }
        }
        let reports = await duringTheFirstReport({ property.value = -100 }, after: { property.value = 1 })
        #expect(reports == 1)
        #expect(seen.values.last == -100, "the other thread's value reached the observer")
        subscription.cancel()
    }

    /// The same for a signal: an event sent from another thread during the report is
    /// delivered, and so are later events.
    @Test func anEventFromAnotherThreadDuringTheReportIsDelivered() async {
        let (signal, input) = Signal<Int>.pipe()
        let seen = Recorder<Int>()
        let subscription = signal.observe { value in
            seen.append(value)
            if value >= 0 { input.send(value + 1) }
        }
        let reports = await duringTheFirstReport({ input.send(-100) }, after: { input.send(0) })
        #expect(reports == 1)
        #expect(seen.values.contains(-100), "the other thread's event reached the observer")
        input.send(-200)
        #expect(seen.values.last == -200, "later events are delivered")
        subscription.cancel()
    }
}

/// Runs `start` (which sets off a feedback loop) on one thread; while the first report runs
/// (its handler waiting), runs `meanwhile` on another thread. Returns how many reports came.
private func duringTheFirstReport(_ meanwhile: @escaping @Sendable () -> Void, after start: @escaping @Sendable () -> Void) async -> Int {
    let reported = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let reports = Counter()
    let previous = SignalsDiagnostics.handler
    SignalsDiagnostics.handler = { _ in
        reports.increment()
        guard reports.value == 1 else { return }
        reported.signal()
        // A hang guard only: the other thread signals once `meanwhile` has returned.
        _ = done.wait(timeout: .now() + 60)
    }
    await onThreads(2) { index in
        if index == 0 {
            start()
        } else {
            _ = reported.wait(timeout: .now() + 60)
            meanwhile()
            done.signal()
        }
    }
    SignalsDiagnostics.handler = previous
    return reports.value
}
