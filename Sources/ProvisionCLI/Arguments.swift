/// A parsed command line for one subcommand: flags, options with values, and positionals.
///
/// Accepts `--name value`, `--name=value`, repeated options, `--` to end options, and `-` as a
/// positional (standard input). Anything starting with `-` that is not declared is a usage error.
public struct Arguments: Sendable {
    /// Flags that were given (`--json`).
    public private(set) var flags: Set<String> = []
    /// Option values in the order given (`--reader a --reader b`).
    public private(set) var values: [String: [String]] = [:]
    /// Positional arguments.
    public private(set) var positionals: [String] = []

    /// Parses `arguments` for a command declaring `flags` and `options` (names without `--`).
    ///
    /// Short aliases map a one-letter form to a long name (`["q": "quiet"]` accepts `-q`).
    public init(
        _ arguments: [String], flags declaredFlags: Set<String>, options declaredOptions: Set<String>,
        aliases: [String: String] = [:]
    ) throws(CLIError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name: String
            var inlineValue: String?
            if argument.hasPrefix("--") {
                name = String(argument.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
            } else {
                let short = String(argument.dropFirst())
                guard let long = aliases[short] else { throw .usage("unknown option '\(argument)'", option: argument) }
                name = long
            }
            if declaredFlags.contains(name) {
                guard inlineValue == nil else { throw .usage("option '--\(name)' takes no value", option: name) }
                flags.insert(name)
            } else if declaredOptions.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw .usage("option '--\(name)' needs a value", option: name)
                    }
                    value = arguments[index]
                    index += 1
                }
                values[name, default: []].append(value)
            } else {
                throw .usage("unknown option '--\(name)'", option: name)
            }
        }
    }

    /// Whether flag `name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The last value of option `name`, if given.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option.
    public func all(_ name: String) -> [String] { values[name] ?? [] }

    /// An integer option, with a usage error naming the option when it is not a number in `range`.
    public func integer(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(CLIError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage(
                "option '--\(name)' needs a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'",
                option: name)
        }
        return number
    }

    /// Exactly `range` positionals, else a usage error.
    ///
    /// An extra positional is named by its 1-based position, never echoed: a key pasted in the wrong place
    /// would otherwise land in the terminal and its scrollback.
    public func requirePositionals(_ range: ClosedRange<Int>, usage: String) throws(CLIError) {
        guard range.contains(positionals.count) else {
            if positionals.count > range.upperBound {
                throw .usage("unexpected argument \(range.upperBound + 1); usage: \(usage)")
            }
            throw .usage("missing argument; usage: \(usage)")
        }
    }
}

extension Arguments {
    /// `--timeout SECONDS` as a duration (default 30 s, `TagSession.timeout`), the error naming the option.
    func timeout() throws(CLIError) -> Duration {
        do {
            return try TagSession.timeout(self)
        } catch {
            var failure = error
            failure.field = "--timeout"
            throw failure
        }
    }

    /// A positive number of seconds for `name` (`--idle`), `nil` when absent.
    ///
    /// - Throws: `CLIError` 64 naming the option when the value is not a finite number above 0.
    func seconds(_ name: String, message: (String) -> String) throws(CLIError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw .usage(message(text), option: name)
        }
        return seconds
    }
}
