// The compiler on big and hostile documents (RelayArenaWorkloads' CompilerBombs): compile time
// per field must not grow with the document (1k vs 4k aliased fields), fragments that each spread
// the next twice compile in linear time, and documents past the limits are refused at once.
import Benchmark
import Foundation
import RelayArenaCompiler
import RelayArenaWorkloads

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 20
    )
    let schema = try! String(contentsOf: TodoListDocuments.schemaURL, encoding: .utf8)
    let compiler = try! Compiler(schema: GraphQLSourceFile(name: "todo.graphql", text: schema))
    let documents: [(String, String)] = [
        ("1k aliased fields", CompilerBombs.aliasedFields(1_000)),
        ("4k aliased fields", CompilerBombs.aliasedFields(4_000)),
        ("4k operations", CompilerBombs.operations(4_000)),
        ("40 levels of double spreads", CompilerBombs.doubleSpreads(40)),
        ("refused: selections 10,000 deep", CompilerBombs.deepSelections(10_000)),
        ("refused: a list literal 56 deep", CompilerBombs.deepList(56)),
        ("refused: an input object 24 deep", CompilerBombs.deepInputObject(24)),
        ("refused: 24 levels of double paths", CompilerBombs.doublePaths(24)),
    ]
    for (name, text) in documents {
        let file = GraphQLSourceFile(name: "bomb.graphql", text: text)
        Benchmark("Compile \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                // Refused documents throw; the time to refuse is the figure.
                blackHole(try? compiler.compile([file]))
            }
        }
    }
}
