import Synchronization

/// Misuse that Signals detects and survives, reported instead of trapping or hanging.
public enum SignalsDiagnostic: Sendable, Equatable {
    /// An observer (of a property or a signal) was called `calls` times in one delivery run
    /// of one thread because the writes or sends made by observers kept making it due again
    /// (for example an observer that always writes a new value to what it observes). The
    /// thread stopped calling it for that run, so the write or send that started the run
    /// returns. It stays subscribed: the next write starts over. A write or send from another
    /// thread, also one made while the handler runs, is delivered by that thread as usual.
    case feedbackLoop(calls: Int)
}

/// Where Signals reports what it detects (see ``SignalsDiagnostic``).
public enum SignalsDiagnostics {
    /// How many times one observer may be called in one thread's delivery run before the run
    /// is taken as a feedback loop and that observer is skipped: 10,000.
    public static let feedbackLoopLimit = 10_000

    private static let current = Mutex<@Sendable (SignalsDiagnostic) -> Void>({ diagnostic in
        print("Signals: \(diagnostic.message)")
    })

    /// The function that receives every diagnostic; by default it prints a line to standard
    /// output. Called with no lock held, on the thread that detected the problem. Setting it
    /// is thread-safe and affects every graph in the process.
    public static var handler: @Sendable (SignalsDiagnostic) -> Void {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}

extension SignalsDiagnostic {
    /// A sentence describing the problem.
    public var message: String {
        switch self {
        case .feedbackLoop(let calls):
            "an observer was called \(calls) times in one delivery because observers keep writing what it observes (a feedback loop); it is skipped until the next write"
        }
    }
}

/// Counts one observer's calls in the current delivery run (see ``Graph/deliveryRun``).
/// Guarded by the observer's lock.
struct FeedbackCounter {
    private var run: UInt64 = 0
    private var calls = 0

    /// Counts a call in `run`; returns false when the observer has had its limit in that run.
    mutating func allowsCall(in run: UInt64) -> Bool {
        if run != self.run {
            self.run = run
            calls = 0
        }
        calls += 1
        return calls <= SignalsDiagnostics.feedbackLoopLimit
    }
}
