/// Linear-time matching of a URL against one template string (a Pike VM over its segments).
///
/// verify-url runs on public input, so matching must not backtrack: the old recursive matcher took
/// 10 s for an 800-character URL. Here every position of the URL is visited once with at most one
/// thread per instruction, so the work is bounded by (URL length + 1) × instructions. The result is
/// the one the backtracking matcher found: literals match exactly, a fixed-length placeholder takes
/// exactly its length, any other takes the shortest run that lets the rest match (earlier
/// placeholders are shortened first).
struct TapURLMatcher: Sendable {
    /// One VM instruction.
    enum Instruction: Sendable {
        /// The next character must be this one.
        case character(Character)
        /// Any next character.
        case any
        /// Try `preferred` first, then `other`.
        case split(preferred: Int, other: Int)
        /// Continue at an instruction.
        case jump(Int)
        /// Record the position in capture slot `n` (2 × placeholder index, + 1 at its end).
        case save(Int)
        /// The whole URL matched (only counts at its end).
        case match
    }

    /// The compiled program.
    let program: [Instruction]
    /// The placeholders in segment order (capture slots 2i and 2i + 1).
    let placeholders: [Placeholder]

    /// Compiles `segments`; `fixedLength` gives a placeholder's length when it has one.
    init(_ segments: ArraySlice<TemplateText.Segment>, fixedLength: (Placeholder) -> Int?) {
        var program: [Instruction] = []
        var placeholders: [Placeholder] = []
        for segment in segments {
            switch segment {
            case .literal(let text):
                program += text.map(Instruction.character)
            case .placeholder(let placeholder):
                let slot = placeholders.count * 2
                placeholders.append(placeholder)
                program.append(.save(slot))
                if let length = fixedLength(placeholder) {
                    program += Array(repeating: .any, count: length)
                } else {
                    // loop: prefer leaving (shortest run), else take one character and loop again.
                    let loop = program.count
                    program.append(.split(preferred: loop + 3, other: loop + 1))
                    program.append(.any)
                    program.append(.jump(loop))
                }
                program.append(.save(slot + 1))
            }
        }
        program.append(.match)
        self.program = program
        self.placeholders = placeholders
    }

    /// A thread: where it is and what it captured.
    private struct Thread {
        var pc: Int
        var captures: [Int]
    }

    /// Matches the whole of `url`; the captured value of every placeholder in segment order, and the
    /// VM steps taken (instruction visits), which `TapURLTests` bound to prove linearity.
    func match(_ url: [Character]) -> (values: [(Placeholder, String)]?, steps: Int) {
        var steps = 0
        var current: [Thread] = []
        var seen = [Int](repeating: -1, count: program.count)
        add(
            Thread(pc: 0, captures: Array(repeating: 0, count: placeholders.count * 2)), at: 0,
            to: &current, seen: &seen, steps: &steps)
        for position in 0...url.count {
            var next: [Thread] = []
            for thread in current {
                steps += 1
                switch program[thread.pc] {
                case .match:
                    guard position == url.count else { continue }
                    return (values(thread.captures, url), steps)
                case .character(let wanted):
                    guard position < url.count, url[position] == wanted else { continue }
                    add(
                        Thread(pc: thread.pc + 1, captures: thread.captures), at: position + 1,
                        to: &next, seen: &seen, steps: &steps)
                case .any:
                    guard position < url.count else { continue }
                    add(
                        Thread(pc: thread.pc + 1, captures: thread.captures), at: position + 1,
                        to: &next, seen: &seen, steps: &steps)
                case .split, .jump, .save:
                    continue  // followed by `add`, never queued
                }
            }
            current = next
            if current.isEmpty { break }
        }
        return (nil, steps)
    }

    /// Follows splits, jumps and saves from `thread` at `position`, queueing each instruction once.
    private func add(_ thread: Thread, at position: Int, to list: inout [Thread], seen: inout [Int], steps: inout Int) {
        steps += 1
        guard seen[thread.pc] != position else { return }
        seen[thread.pc] = position
        switch program[thread.pc] {
        case .jump(let target):
            add(Thread(pc: target, captures: thread.captures), at: position, to: &list, seen: &seen, steps: &steps)
        case .split(let preferred, let other):
            add(Thread(pc: preferred, captures: thread.captures), at: position, to: &list, seen: &seen, steps: &steps)
            add(Thread(pc: other, captures: thread.captures), at: position, to: &list, seen: &seen, steps: &steps)
        case .save(let slot):
            var captures = thread.captures
            captures[slot] = position
            add(Thread(pc: thread.pc + 1, captures: captures), at: position, to: &list, seen: &seen, steps: &steps)
        case .character, .any, .match:
            list.append(thread)
        }
    }

    private func values(_ captures: [Int], _ url: [Character]) -> [(Placeholder, String)] {
        placeholders.enumerated().map { index, placeholder in
            (placeholder, String(url[captures[index * 2]..<captures[index * 2 + 1]]))
        }
    }
}
