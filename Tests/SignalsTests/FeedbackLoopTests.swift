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
