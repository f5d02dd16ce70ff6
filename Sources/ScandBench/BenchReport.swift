import ArgumentParser
import Foundation
import ScandProtocol
import ScandDecoding

/// What one benchmark measured: a Markdown table for people, the same rows as JSON for tools.
struct BenchReport {
    var name: String
    var table: String
    var rows: JSONValue

    /// Prints the table; writes `{"bench": rows}` to `json` when asked.
    func emit(json: String?) throws {
        print(table)
        if let json { try BenchReport.write([self], to: json) }
    }

    /// One JSON object for several benchmarks, with the machine they ran on, and under `tables` each one's table
    /// as printed (scripts/bench-tables writes them into docs/performance.md).
    static func write(_ reports: [BenchReport], to path: String) throws {
        var fields: [(String, JSONValue)] = [("machine", machine)]
        fields += reports.map { ($0.name, $0.rows) }
        fields.append(("tables", .object(reports.map { ($0.name, .string($0.table)) })))
        try (JSONValue.object(fields).serialized() + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    static var machine: JSONValue {
        var u = utsname()
        uname(&u)
        let kernel = String(fixedCString: u.release)
        return .object([
            ("cores", .int(ProcessInfo.processInfo.activeProcessorCount)), ("kernel", .string(kernel)),
            ("zxing", .string(ZXingDecoder.libraryVersion)), ("decoderProcesses", .int(DecoderWorker.defaultLanes))
        ])
    }
}

/// A `scand bench` benchmark: running it prints its report and writes it as JSON when asked.
protocol Bench: AsyncParsableCommand {
    var output: BenchOutput { get }
    /// The photo benchmarks' folder of photos (nil: the shared sets).
    var root: String? { get }
    /// nil when there are no photos to measure.
    func report() async throws -> BenchReport?
}

extension Bench {
    var root: String? { nil }

    func run() async throws {
        guard let report = try await report() else {
            throw ValidationError("no photos under '\(root ?? PhotoBenchmark.defaultRoots().joined(separator: "' or '"))'")
        }
        try report.emit(json: output.json)
    }
}

/// Where a bench's table goes besides stdout: the option every bench takes.
struct BenchOutput: ParsableArguments {
    @Option(name: .long, help: "Also write the table as JSON to this file.")
    var json: String?
}
