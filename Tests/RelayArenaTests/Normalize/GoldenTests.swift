// Replays every golden case (Golden/NNN-*/: document, response, expected store, updated IDs,
// reads or an expected error) whole and at every chunk size from 1 to 16.
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaTestSupport
import XCTest

final class GoldenTests: XCTestCase {
    struct GoldenCase {
        let name: String
        let spec: JSONValue
        let document: String
        let response: [UInt8]
    }

    static func cases() throws -> [GoldenCase] {
        let root = Bundle.module.url(forResource: "Golden", withExtension: nil)!
        let dirs = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasSuffix(".md") }
            .sorted()
        return try dirs.map { dir in
            let url = root.appendingPathComponent(dir)
            return GoldenCase(
                name: dir,
                spec: try JSONCompare.parse(Data(contentsOf: url.appendingPathComponent("case.json"))),
                document: try String(contentsOf: url.appendingPathComponent("document.graphql"), encoding: .utf8),
                response: Array(try Data(contentsOf: url.appendingPathComponent("response.json"))))
        }
    }

    func testGoldenCasesExist() throws {
        XCTAssertGreaterThanOrEqual(try Self.cases().count, 60)
    }

    func testEveryGoldenCaseAtEveryChunkSize() throws {
        let compilers = [
            "todo": try Compiler(schema: GraphQLSourceFile(name: "todo.graphql", text: Fixtures.text("todo.graphql"))),
            "starwars": try Compiler(
                schema: GraphQLSourceFile(name: "starwars.graphql", text: Fixtures.text("starwars.graphql"))),
        ]
        var failures = 0
        for c in try Self.cases() {
            let spec = c.spec
            guard case .string(let schema)? = spec["schema"], let compiler = compilers[schema],
                case .string(let opName)? = spec["operation"]
            else {
                XCTFail("\(c.name): case.json lacks schema/operation")
                continue
            }
            let docs = try compiler.compile([GraphQLSourceFile(name: "\(c.name)/document.graphql", text: c.document)])
            guard let operation = docs.operations[opName] else {
                XCTFail("\(c.name): no operation \(opName)")
                continue
            }
            var variables: Variables = [:]
            for m in spec["variables"]?.objectMembers ?? [] { variables[m.key] = m.value }
            var rootID = RecordStore.rootID
            if case .string(let r)? = spec["rootID"] { rootID = r }
            let plan = try NormalizationPlan(operation: operation, variables: variables)
            let initialJSON: [UInt8]? = spec["initialStore"].map { Array($0.stableJSON.utf8) }

            for size in Chunking.sizes {
                let store = try initialJSON.map { try RecordStore(relayJSON: $0) } ?? RecordStore()
                let before = store.relayJSON()
                let label = "\(c.name) [chunk \(size == Int.max ? "whole" : String(size))]"
                do {
                    let normalizer = try ResponseNormalizer(plan: plan, rootID: rootID)
                    try Chunking.split(c.response, size: size) { try normalizer.feed($0) }
                    let updated = try store.publish(try normalizer.finish())
                    if case .string(let expectedError)? = spec["expectedError"] {
                        XCTFail("\(label): expected an error containing \"\(expectedError)\", got success")
                        failures += 1
                        continue
                    }
                    let stored = try JSONCompare.parse(store.relayJSON())
                    XCTAssertEqual(
                        store.recordCount, stored.objectMembers?.count, "\(label): records the relay JSON does not show"
                    )
                    if let expected = spec["expectedStore"], let d = JSONCompare.difference(stored, expected) {
                        XCTFail("\(label): store differs: \(d)")
                        failures += 1
                        continue
                    }
                    if case .array(let ids)? = spec["expectedUpdatedIDs"] {
                        let expected = Set(
                            ids.compactMap { v -> String? in if case .string(let s) = v { return s } else { return nil }
                            })
                        XCTAssertEqual(Set(updated), expected, "\(label): updated IDs")
                        XCTAssertEqual(updated.count, Set(updated).count, "\(label): an ID reported twice")
                    }
                    if size == Int.max {
                        try checkReads(c, spec, docs, operation, variables, store)
                        if initialJSON == nil { try checkAdoption(label, plan, rootID, c.response, store, updated) }
                    }
                } catch let error as RelayArenaError {
                    guard case .string(let expectedError)? = spec["expectedError"] else {
                        XCTFail("\(label): unexpected error \(error)")
                        failures += 1
                        continue
                    }
                    XCTAssertTrue(
                        error.description.lowercased().contains(expectedError.lowercased()),
                        "\(label): error \"\(error)\" lacks \"\(expectedError)\"")
                    XCTAssertEqual(store.relayJSON(), before, "\(label): a failed payload changed the store")
                }
            }
        }
        XCTAssertEqual(failures, 0)
    }

    /// `commit` into a new store takes the payload's arena instead of copying it: same records,
    /// same updated IDs as the copying `publish`.
    func checkAdoption(
        _ label: String, _ plan: NormalizationPlan, _ rootID: String, _ response: [UInt8],
        _ copied: RecordStore, _ copiedUpdated: UpdatedRecordIDs
    ) throws {
        let adopted = RecordStore()
        let updated = try adopted.commit(response: response, plan: plan, rootID: rootID)
        let adoptedJSON = try JSONCompare.parse(adopted.relayJSON())
        XCTAssertNil(
            JSONCompare.difference(adoptedJSON, try JSONCompare.parse(copied.relayJSON())),
            "\(label): adopting differs from copying")
        XCTAssertEqual(
            adopted.recordCount, adoptedJSON.objectMembers?.count, "\(label): records the relay JSON does not show")
        XCTAssertEqual(Set(updated), Set(copiedUpdated), "\(label): adopting reports other updated IDs")
        // The adopted store goes on like any other: the same payload again changes nothing.
        XCTAssertEqual(Array(try adopted.commit(response: response, plan: plan, rootID: rootID)), [], label)
    }

    func checkReads(
        _ c: GoldenCase, _ spec: JSONValue, _ docs: CompiledDocuments, _ operation: OperationArtifact,
        _ variables: Variables, _ store: RecordStore
    ) throws {
        guard case .array(let reads)? = spec["reads"] else { return }
        for read in reads {
            guard case .string(let fragment)? = read["fragment"], case .string(let id)? = read["id"],
                let expected = read["expected"]
            else {
                XCTFail("\(c.name): malformed read")
                continue
            }
            let result: ReadResult
            if fragment == operation.name {
                result = store.read(operation: operation, variables: variables, dataID: id)
            } else if let artifact = docs.fragments[fragment] {
                result = store.read(
                    fragment: artifact, dataID: id, variables: operation.effectiveVariables(variables),
                    owner: FragmentOwner(operation: operation, variables: variables))
            } else {
                XCTFail("\(c.name): unknown fragment \(fragment)")
                continue
            }
            let got = try JSONCompare.parse(Array(result.jsonText.utf8))
            if let d = JSONCompare.difference(got, expected) {
                XCTFail("\(c.name): read \(fragment) from \(id): \(d)\n got: \(result.jsonText)")
            }
        }
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        objectMembers?.last { $0.key == key }?.value
    }
}
