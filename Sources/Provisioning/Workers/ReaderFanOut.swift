/// The one worker fan-out: one worker per reader, all at once, each ending on its own (a reader that fails
/// does not stop the others; `run`'s end together once the job is complete, through their shared
/// `StopRequest`). `run` and `audit` both start their workers here.
public enum ReaderFanOut {
    /// How one reader's worker ended: its result, or the error that ended it.
    public struct End<Value: Sendable>: Sendable {
        /// The reader's position in the list given to `run`.
        public var index: Int
        /// What the worker returned or threw.
        public var result: Result<Value, any Error>
    }

    /// Runs `worker(index)` for every index in `0..<count` concurrently and returns every end in reader
    /// order.
    public static func run<Value: Sendable>(
        _ count: Int, worker: @escaping @Sendable (Int) async throws -> Value
    ) async -> [End<Value>] {
        let ends = await withTaskGroup(of: End<Value>.self) { group in
            for index in 0..<count {
                group.addTask {
                    do {
                        return End(index: index, result: .success(try await worker(index)))
                    } catch {
                        return End(index: index, result: .failure(error))
                    }
                }
            }
            var ends: [End<Value>] = []
            for await end in group { ends.append(end) }
            return ends
        }
        return ends.sorted { $0.index < $1.index }
    }
}
