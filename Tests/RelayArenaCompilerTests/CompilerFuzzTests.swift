// The compiler's fuzz test: random and mutated documents (seeded by the document bombs and the
// golden cases' documents) must compile or throw one `CompilerError` of one line at a position
// inside the document: never crash, never hang. Bounded in iterations and time, seeded, so a
// failure names the iteration that replays it.
import Foundation
import RelayArenaCompiler
import RelayArenaTestSupport
import RelayArenaWorkloads
import XCTest

final class CompilerFuzzTests: XCTestCase {
    /// `RELAY_ARENA_FUZZ_ITERATIONS` (default 2,000), `RELAY_ARENA_FUZZ_SECONDS` (default 25, a
    /// cap on wall time) and `RELAY_ARENA_FUZZ_SEED` (default fixed) change the run.
    private static let environment = ProcessInfo.processInfo.environment
    private let iterations = environment["RELAY_ARENA_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 2_000
    private let seconds = environment["RELAY_ARENA_FUZZ_SECONDS"].flatMap(Double.init) ?? 25
    private let seed = environment["RELAY_ARENA_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5EED_2026

    func testMutatedAndRandomDocumentsCompileOrFailInOneLine() throws {
        let compilers = [
            "todo": try TestCompiler.make("todo.graphql"), "starwars": try TestCompiler.make("starwars.graphql"),
        ]
        let seeds = try Self.seeds()
        XCTAssertGreaterThan(seeds.count, 50)
        // The seeds themselves first: the bombs are regression cases.
        for (index, seed) in seeds.enumerated() {
            check(seed.text, compiler: compilers[seed.schema]!, label: "seed \(index)")
        }
        var random = SplitMix(seed: seed)
        let start = Date()
        var ran = 0
        var slowest: (seconds: Double, iteration: Int) = (0, 0)
        while ran < iterations, Date().timeIntervalSince(start) < seconds {
            let iteration = ran
            ran += 1
            let document: String
            let schema: String
            if random.next(below: 4) == 0 {
                (document, schema) = (Self.randomDocument(&random), random.next(below: 2) == 0 ? "todo" : "starwars")
            } else {
                let base = seeds[random.next(below: seeds.count)]
                let other = seeds[random.next(below: seeds.count)]
                var text = base.text
                for _ in 0...random.next(below: 4) { text = Self.mutate(text, other: other.text, &random) }
                (document, schema) = (text, base.schema)
            }
            let began = Date()
            check(document, compiler: compilers[schema]!, label: "iteration \(iteration) (seed \(seed))")
            let took = Date().timeIntervalSince(began)
            if took > slowest.seconds { slowest = (took, iteration) }
        }
        print(
            "compiler fuzz: \(ran) documents (seed \(seed)), \(compiled) of them and the seeds compiled, slowest: iteration \(slowest.iteration), \(slowest.seconds) s"
        )
    }

    private var compiled = 0

    private func check(_ text: String, compiler: Compiler, label: String) {
        let file = GraphQLSourceFile(name: "fuzz.graphql", text: text)
        do {
            _ = try compiler.compile([file])
            compiled += 1
        } catch let error as CompilerError {
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
            let fine =
                !error.description.contains(where: \.isNewline) && error.file == file.name
                && (1...max(lines, 1)).contains(error.line) && error.column >= 1
            if !fine {
                let saved = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "compiler-fuzz-failure.graphql")
                try? text.write(to: saved, atomically: true, encoding: .utf8)
                XCTFail("\(label): \(error.description) (document written to \(saved.path))")
            }
        } catch {
            XCTFail("\(label): not a CompilerError: \(error)")
        }
    }

    // MARK: seeds

    private struct Seed {
        var text: String
        var schema: String
    }

    /// The bombs, at sizes that keep each compile short, and every golden case's document.
    private static func seeds() throws -> [Seed] {
        var seeds = [
            CompilerBombs.deepSelections(300), CompilerBombs.deepSelections(DocumentLimits.nesting - 2),
            CompilerBombs.deepList(56), CompilerBombs.deepList(DocumentLimits.literalNesting),
            CompilerBombs.deepInputObject(24), CompilerBombs.deepInputObject(15),
            CompilerBombs.doubleSpreads(40), CompilerBombs.doublePaths(12), CompilerBombs.spreadChain(120),
            CompilerBombs.deepChain(12, depth: 90), CompilerBombs.aliasedFields(300), CompilerBombs.operations(100),
        ].map { Seed(text: $0, schema: "todo") }
        let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../RelayArenaTests/Golden").standardized
        for name in try FileManager.default.contentsOfDirectory(atPath: golden.path).sorted() {
            let folder = golden.appendingPathComponent(name)
            guard
                let document = try? String(
                    contentsOf: folder.appendingPathComponent("document.graphql"), encoding: .utf8),
                let spec = try? Data(contentsOf: folder.appendingPathComponent("case.json")),
                let object = try JSONSerialization.jsonObject(with: spec) as? [String: Any],
                let schema = object["schema"] as? String, schema == "todo" || schema == "starwars"
            else { continue }
            seeds.append(Seed(text: document, schema: schema))
        }
        return seeds
    }

    // MARK: mutations

    /// Tokens that matter to the lexer and the parser, and ones that build relay's constructs.
    private static let dictionary = [
        "{", "}", "[", "]", "(", ")", ":", "=", "$", "!", "@", "...", "|", "&", ",", "\n", "\r\n", "\r", " ",
        "\"", "\"\"\"", "\\\"\"\"", "\\", "#", "# {[(\n", "\"{[(\"", "\u{FEFF}", "é", "😀", "\u{301}", "-1", "0.5e3",
        "true", "null", "on", "fragment", "query", "mutation", "subscription", "... on User", "...F0",
        "@include(if: $v)", "@skip(if: true)", "@arguments(a: 1)", "@argumentDefinitions(a: {type: \"Int\"})",
        "@connection(key: \"K_todos\")", "@inline", "@refetchable(queryName: \"RQ\")", "__typename", "id", "name",
        "friends", "bestFriend", "user(id: \"me\")", "hero", "viewer", "locale", "$v: Boolean", "[[[[[[", "]]]]]]",
        "{a: {a: {a: {a:", "}}}}",
    ]

    private static func mutate(_ text: String, other: String, _ random: inout SplitMix) -> String {
        var bytes = Array(text.utf8)
        func position() -> Int { random.next(below: bytes.count + 1) }
        func range() -> Range<Int> {
            let start = position()
            return start..<min(bytes.count, start + random.next(below: 64) + 1)
        }
        switch random.next(below: 8) {
        case 0, 1:
            let token = dictionary[random.next(below: dictionary.count)]
            bytes.insert(contentsOf: Array(token.utf8), at: position())
        case 2:
            let cut = range()
            bytes.removeSubrange(cut)
        case 3:
            // A slice repeated: nesting, width and length all grow.
            let slice = Array(bytes[range()])
            let times = [2, 8, 64, 300][random.next(below: 4)]
            bytes.insert(contentsOf: Array(repeating: slice, count: times).joined(), at: position())
        case 4:
            let opener = ["{", "[", "(", "{a: ", "friends { "][random.next(below: 5)]
            bytes.insert(
                contentsOf: Array(String(repeating: opener, count: random.next(below: 200) + 1).utf8), at: position())
        case 5:
            // Splice part of another seed in.
            let donor = Array(other.utf8)
            let start = random.next(below: donor.count + 1)
            let piece = donor[start..<min(donor.count, start + random.next(below: 400) + 1)]
            bytes.insert(contentsOf: piece, at: position())
        case 6:
            if !bytes.isEmpty {
                bytes[random.next(below: bytes.count)] = UInt8(truncatingIfNeeded: random.next(below: 256))
            }
        default:
            // A whole seed appended: two documents' definitions together (duplicate names, spreads across).
            bytes += Array(("\n" + other).utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: random documents

    private static let fields = [
        "user(id: \"me\")", "friends", "friends(first: 2)", "bestFriend", "name", "id", "email", "__typename",
        "viewer", "locale", "actor", "hero", "hero(episode: EMPIRE)", "friendsConnection(first: 1)", "todos(first: 3)",
    ]

    /// Operations and fragments of random fields, literals, conditions and spreads (which may name
    /// fragments that do not exist, or form cycles): mostly invalid, sometimes deep.
    private static func randomDocument(_ random: inout SplitMix) -> String {
        let fragments = random.next(below: 6)
        // Selections left to write, so that nesting (sometimes hundreds deep) stays bounded in size.
        var budget = 300
        func selections(_ random: inout SplitMix) -> String {
            var out = "{ "
            for _ in 0...random.next(below: 4) {
                budget -= 1
                switch random.next(below: 10) {
                case 0: out += "...F\(random.next(below: fragments + 1)) "
                case 1: out += "... on User " + (budget > 0 ? selections(&random) : "{ id } ")
                case 2: out += "name @include(if: $v) "
                case 3: out += "a\(random.next(below: 3)): name "
                case 4: out += "user(id: \(literal(random.next(below: 40), &random))) { id } "
                default:
                    out += fields[random.next(below: fields.count)] + " "
                    if budget > 0, random.next(below: 3) != 0 { out += selections(&random) }
                }
            }
            return out + "} "
        }
        var text = "query Q($v: Boolean) " + selections(&random) + "\n"
        for index in 0..<fragments {
            budget = 300
            text += "fragment F\(index) on \(["User", "Query", "Character", "Viewer"][random.next(below: 4)]) "
            text += selections(&random) + "\n"
        }
        return text
    }

    private static func literal(_ depth: Int, _ random: inout SplitMix) -> String {
        guard depth > 0 else {
            return ["1", "\"me\"", "$v", "null", "EMPIRE", "\"\(String(repeating: "x", count: 90))\""][
                random.next(below: 6)]
        }
        switch random.next(below: 3) {
        case 0: return "[" + literal(depth - 1, &random) + ", " + literal(depth / 2, &random) + "]"
        case 1: return "{a: " + literal(depth - 1, &random) + "}"
        default: return literal(depth - 1, &random)
        }
    }
}
