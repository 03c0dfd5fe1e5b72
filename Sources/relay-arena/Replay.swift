// `relay-arena replay`: runs a script of environment steps against one store and prints what an
// application would see, one JSON object per line. The script is checked whole before any step
// runs; the notification, reading and refetch rules are the runtime's (StoreSubscriptions,
// ReadSelector, RefetchMetadata), this file only wires steps to them and prints events.
import ArgumentParser
import Foundation
import RelayArena
import RelayArenaCompiler
import RelayArenaGenerateCommand

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a script of environment steps against one store; print its events as NDJSON.",
        discussion: """
            Steps: publish, subscribe, unsubscribe, refetch, retain, release, gc, invalidate, \
            invalidate_store, check, advance_clock, store. Time is virtual: the clock starts at 0 ms \
            and moves only by advance_clock.
            """)

    @Option(help: "The schema (SDL).")
    var schema: String

    @Option(
        name: .customLong("client-schema"),
        help: "A client schema extension (SDL: extend type …, client-only types); repeatable. Never sent.")
    var clientSchema: [String] = []

    @Option(help: "A GraphQL document; repeat for several files.")
    var document: [String]

    @Flag(
        name: .customLong("no-enforce-fragment-alias"),
        help: "Accept spreads relay v19 requires @alias on (conditional ones, ones that may not match their type).")
    var noEnforceFragmentAlias = false

    @Option(help: "Load the starting store: a snapshot or relay toJSON JSON (told apart by content).")
    var store: String?

    @Option(
        name: .customLong("release-buffer"),
        help: "relay's gcReleaseBufferSize: how many released or unretained queries stay roots (default 10).")
    var releaseBuffer: Int = 10

    @Option(
        name: .customLong("query-cache-expiration-ms"),
        help: "relay's queryCacheExpirationTime in ms of the virtual clock (default none: never).")
    var queryCacheExpirationMS: Int?

    @ArgumentParser.Argument(help: "The script (a JSON array of steps), or - for standard input.")
    var script: String

    func validate() throws {
        guard releaseBuffer >= 0 else { throw ValidationError("--release-buffer must be 0 or more") }
        if let queryCacheExpirationMS, queryCacheExpirationMS < 0 {
            throw ValidationError("--query-cache-expiration-ms must be 0 or more")
        }
    }

    func run() throws {
        let compiled = try compileDocuments(
            schema: schema, clientSchema: clientSchema, documents: document,
            enforcesFragmentAlias: !noEnforceFragmentAlias)
        let text = script == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try readBytes(script)
        let steps = try ReplayScript.steps(Array(text), compiled)
        let target = try store.map(loadStore) ?? RecordStore()
        let releaseBuffer = self.releaseBuffer
        let expiration = queryCacheExpirationMS.map(Milliseconds.init)
        let run = (target, compiled, steps)
        MainActor.assumeIsolated {
            ReplayRunner(
                store: run.0, compiled: run.1, releaseBuffer: releaseBuffer, queryCacheExpiration: expiration
            ).run(run.2)
        }
    }
}

/// A step as it runs: names resolved to artifacts, variables and responses taken out of the JSON.
enum ReplayStep {
    case publish(operation: OperationArtifact, variables: Variables, response: [UInt8], rootID: String, revert: String?)
    case optimistic(name: String, operation: OperationArtifact, variables: Variables, response: [UInt8])
    case revert(name: String)
    case loadMore(name: String, count: Int, forward: Bool)
    case subscribe(name: String, selector: ReadSelector)
    case unsubscribe(name: String)
    case refetch(name: String, variables: Variables)
    case retain(name: String, operation: OperationArtifact, variables: Variables)
    case release(name: String)
    case invalidate(id: String)
    case invalidateStore
    case gc
    case check(operation: OperationArtifact, variables: Variables)
    case advanceClock(ms: Milliseconds)
    case store
}

/// Checks a whole script before anything runs: every error names the step's index.
enum ReplayScript {
    /// Steps the contract lists whose semantics are not built yet: refused as unknown.
    static let notBuilt: Set<String> = []

    static func steps(_ text: [UInt8], _ compiled: CompilationResult) throws -> [ReplayStep] {
        let script = try JSONDocument.parse(text)
        guard case .array(let items) = script.kind else {
            throw RelayArenaError(code: .misuse, message: "the script must be a JSON array of steps")
        }
        let docs = compiled.documents
        /// Subscriptions made so far (by name), with the fragment they read (`nil`: an operation).
        var made: [String: FragmentArtifact?] = [:]
        var active: Set<String> = []
        /// Retains by name: whether each is still held.
        var retained: [String: Bool] = [:]
        /// Optimistic layers by name (a name is applied once).
        var layers: Set<String> = []
        func layer(_ step: StepJSON) throws -> String {
            let name = try step.string("revert")
            guard layers.contains(name) else { throw step.fail("no optimistic layer `\(name)` was applied before") }
            return name
        }
        var steps: [ReplayStep] = []
        for (index, item) in items.enumerated() {
            let step = StepJSON(index: index, json: item, text: text)
            guard case .object = item.kind else { throw step.fail("a step must be a JSON object") }
            let kind = try step.string("step")
            switch kind {
            case "publish":
                let revert = item["revert"] == nil ? nil : try layer(step)
                let operation = try step.operation("operation", docs)
                let variables = try step.variables("variables")
                let response: [UInt8]
                switch (item["response"], item["response_text"]) {
                case (let json?, nil): response = Array(step.bytes(json))
                case (nil, .some):
                    response = Array(try step.string("response_text").utf8)
                case (nil, nil): throw step.fail("missing key `response` (or `response_text`)")
                case (.some, .some): throw step.fail("`response` and `response_text` both given")
                }
                let rootID = item["root_id"] == nil ? RecordStore.rootID : try step.string("root_id")
                steps.append(
                    .publish(
                        operation: operation, variables: variables, response: response, rootID: rootID, revert: revert))
            case "optimistic":
                let name = try step.string("name")
                let operation = try step.operation("operation", docs)
                let variables = try step.variables("variables")
                guard let json = item["response"] else { throw step.fail("missing key `response`") }
                guard layers.insert(name).inserted else {
                    throw step.fail("optimistic layer `\(name)` was applied before")
                }
                steps.append(
                    .optimistic(
                        name: name, operation: operation, variables: variables, response: Array(step.bytes(json))))
            case "revert":
                guard item["name"] != nil else { throw step.fail("missing key `name`") }
                let name = try step.string("name")
                guard layers.contains(name) else { throw step.fail("no optimistic layer `\(name)` was applied before") }
                steps.append(.revert(name: name))
            case "subscribe":
                let name = try step.string("name")
                let fragmentName = try step.string("fragment")
                let owner = try step.operation("operation", docs)
                let variables = try step.variables("variables")
                let id = try step.string("id")
                guard !active.contains(name) else { throw step.fail("subscription `\(name)` is already active") }
                let selector: ReadSelector
                if let fragment = docs.fragments[fragmentName] {
                    let fragmentVariables: Variables
                    do {
                        fragmentVariables = try owner.fragmentVariables(
                            of: fragment, variables: variables, fragments: docs.fragments)
                    } catch let error as RelayArenaError {
                        throw step.fail(error.message)
                    }
                    selector = ReadSelector(
                        node: .fragment(fragment), dataID: id, variables: fragmentVariables,
                        owner: FragmentOwner(operation: owner, variables: variables))
                    made[name] = fragment
                } else if let operation = docs.operations[fragmentName] {
                    guard operation.name == owner.name else {
                        throw step.fail(
                            "`fragment` names operation `\(fragmentName)`: an operation's own selection is read "
                                + "for itself, so `operation` must be `\(fragmentName)` too")
                    }
                    selector = ReadSelector(
                        node: .operation(operation), dataID: id, variables: operation.effectiveVariables(variables),
                        owner: FragmentOwner(operation: operation, variables: variables))
                    made[name] = .some(nil)
                } else {
                    throw step.fail("unknown fragment `\(fragmentName)`")
                }
                active.insert(name)
                steps.append(.subscribe(name: name, selector: selector))
            case "unsubscribe":
                let name = try step.string("name")
                guard made[name] != nil else { throw step.fail("no subscription named `\(name)` was made") }
                active.remove(name)
                steps.append(.unsubscribe(name: name))
            case "refetch":
                let name = try step.string("name")
                let variables = item["variables"] == nil ? [:] : try step.variables("variables")
                guard let fragment = made[name] else { throw step.fail("no subscription named `\(name)` was made") }
                guard active.contains(name) else { throw step.fail("subscription `\(name)` has ended") }
                guard let fragment, let metadata = compiled.refetch[fragment.name],
                    docs.operations[metadata.operation] != nil
                else {
                    throw step.fail("subscription `\(name)` does not read a @refetchable fragment")
                }
                steps.append(.refetch(name: name, variables: variables))
            case "load_next", "load_previous":
                let name = try step.string("name")
                guard let count = item["count"]?.jsonValue, case .int(let n) = count, n >= 0 else {
                    throw step.fail("`count` must be a whole number, 0 or more")
                }
                guard let fragment = made[name] else { throw step.fail("no subscription named `\(name)` was made") }
                guard active.contains(name) else { throw step.fail("subscription `\(name)` has ended") }
                let forward = kind == "load_next"
                guard let fragment, let connection = compiled.refetch[fragment.name]?.connection,
                    (forward ? connection.forward : connection.backward) != nil
                else {
                    throw step.fail(
                        "subscription `\(name)` does not read a pagination fragment (@refetchable with a @connection paged "
                            + (forward ? "by first/after)" : "by last/before)"))
                }
                steps.append(.loadMore(name: name, count: Int(n), forward: forward))
            case "retain":
                let name = try step.string("name")
                let operation = try step.operation("operation", docs)
                let variables = try step.variables("variables")
                guard retained[name] != true else { throw step.fail("retain `\(name)` is already held") }
                retained[name] = true
                steps.append(.retain(name: name, operation: operation, variables: variables))
            case "release":
                let name = try step.string("name")
                guard retained[name] != nil else { throw step.fail("no retain named `\(name)` was made") }
                retained[name] = false
                steps.append(.release(name: name))
            case "invalidate":
                steps.append(.invalidate(id: try step.string("id")))
            case "invalidate_store":
                steps.append(.invalidateStore)
            case "gc":
                steps.append(.gc)
            case "check":
                steps.append(
                    .check(operation: try step.operation("operation", docs), variables: try step.variables("variables"))
                )
            case "advance_clock":
                guard let value = item["ms"] else { throw step.fail("missing key `ms`") }
                guard case .int(let ms) = value.jsonValue, ms >= 0 else {
                    throw step.fail("`ms` must be a whole number of milliseconds, 0 or more")
                }
                steps.append(.advanceClock(ms: ms))
            case "store":
                steps.append(.store)
            default:
                throw step.fail(
                    "unknown step `\(kind)`" + (notBuilt.contains(kind) ? " (not supported yet)" : ""))
            }
        }
        return steps
    }
}

/// One step's object, with errors that name its index.
private struct StepJSON {
    let index: Int
    let json: JSONDocument
    let text: [UInt8]

    func fail(_ message: String) -> RelayArenaError {
        RelayArenaError(code: .misuse, message: "script step \(index): \(message)")
    }

    func string(_ key: String) throws -> String {
        guard let value = json[key] else { throw fail("missing key `\(key)`") }
        guard let string = value.string else { throw fail("`\(key)` must be a string") }
        return string
    }

    func variables(_ key: String) throws -> Variables {
        guard let value = json[key] else { throw fail("missing key `\(key)`") }
        guard case .object(let members) = value.jsonValue else { throw fail("`\(key)` must be a JSON object") }
        var variables: Variables = [:]
        for member in members { variables[member.key] = member.value }
        return variables
    }

    func operation(_ key: String, _ docs: CompiledDocuments) throws -> OperationArtifact {
        let name = try string(key)
        guard let operation = docs.operations[name] else { throw fail("unknown operation `\(name)`") }
        return operation
    }

    /// The bytes a value was written as in the script.
    func bytes(_ value: JSONDocument) -> ArraySlice<UInt8> { text[value.range] }
}

/// Runs checked steps against one store and its subscriptions, printing each step's events.
@MainActor
final class ReplayRunner {
    let store: RecordStore
    /// Its publish queue applies and rolls back the optimistic layers; it never fetches.
    let environment: Environment
    let subscriptions: StoreSubscriptions
    let roots: OperationRoots
    /// Optimistic layers by name.
    private var layers: [String: OptimisticUpdate] = [:]
    let compiled: CompilationResult
    /// The virtual clock, in ms: starts at 0, moves only by `advance_clock`.
    private final class Clock { var now: Milliseconds = 0 }
    private let clock = Clock()
    /// Retains by name (a released one stays, disposed: releasing again does nothing).
    private var retains: [String: Disposable] = [:]
    /// Active subscriptions by name.
    private var ids: [String: SubscriptionID] = [:]
    /// Refetch requests not answered yet, by subscription name: a publish of the same request
    /// points the subscription at the refetch query's result.
    private var pending: [String: GraphQLRequest] = [:]
    /// Page requests not answered yet, by subscription name (the subscription keeps its owner).
    private var pendingPages: [String: GraphQLRequest] = [:]
    private var output: [UInt8] = []

    init(
        store: RecordStore, compiled: CompilationResult, releaseBuffer: Int = 10,
        queryCacheExpiration: Milliseconds? = nil
    ) {
        self.store = store
        self.compiled = compiled
        let clock = self.clock
        let roots = OperationRoots(
            releaseBufferSize: releaseBuffer, queryCacheExpiration: queryCacheExpiration, now: { clock.now })
        self.roots = roots
        // relay's warnings (a page that does not follow its connection) are not failures: a line
        // on stderr, no `error` event.
        environment = Environment(
            network: MockNetwork(), store: store, roots: roots,
            log: { event in
                guard event.isWarning else { return }
                FileHandle.standardError.write(Data("relay-arena: warning: \(event.message)\n".utf8))
            })
        roots.onRootDropped = nil  // collection happens at `gc` steps only
        subscriptions = environment.subscriptions
    }

    func run(_ steps: [ReplayStep]) {
        for (index, step) in steps.enumerated() {
            run(step, index: index)
            if !output.isEmpty {
                FileHandle.standardOutput.write(Data(output))
                output.removeAll(keepingCapacity: true)
            }
        }
    }

    private func emit(_ line: String) {
        output += line.utf8
        output.append(0x0A)
    }

    private func readEvent(_ event: String, _ name: String, _ result: ReadResult) -> String {
        // The read as `read` prints it (`data` or `throws`, `isMissingData`, `fieldErrors`), after the event's name.
        "{\"event\":\"\(event)\",\"name\":\(ReadValue.string(name).jsonText)," + result.jsonText.dropFirst()
    }

    private func run(_ step: ReplayStep, index: Int) {
        switch step {
        case .publish(let operation, let variables, let response, let rootID, let revert):
            publish(operation, variables, response, rootID: rootID, revert: revert.flatMap { layers[$0] }, index: index)
        case .optimistic(let name, let operation, let variables, let response):
            do {
                layers[name] = try environment.applyOptimistic(operation, variables: variables, response: response)
            } catch {
                self.error(error, index)
            }
        case .revert(let name):
            if let layer = layers[name] { environment.revert(layer) }
        case .subscribe(let name, let selector):
            let (first, id) = subscriptions.subscribe(selector) { [unowned self] result in
                self.emit(self.readEvent("notify", name, result))
            }
            ids[name] = id
            emit(readEvent("snapshot", name, first))
        case .unsubscribe(let name):
            guard let id = ids.removeValue(forKey: name) else { return }  // ended already: nothing
            subscriptions.unsubscribe(id)
            pending[name] = nil
            pendingPages[name] = nil
        case .refetch(let name, let given):
            guard let id = ids[name], let selector = subscriptions.selector(id),
                case .fragment(let fragment) = selector.node,
                let metadata = compiled.refetch[fragment.name],
                let query = compiled.documents.operations[metadata.operation]
            else { return }  // checked before running
            let variables = metadata.refetchVariables(
                query: query, owner: selector.owner, fragment: selector.variables, given: given,
                dataID: selector.dataID, in: store)
            let request = GraphQLRequest(operation: query, variables: variables)
            pending[name] = request
            emit(
                "{\"event\":\"request\",\"name\":\(ReadValue.string(name).jsonText),\"operation\":"
                    + "\(ReadValue.string(query.name).jsonText),\"variables\":\(request.variablesJSON)}")
        case .loadMore(let name, let count, let forward):
            loadMore(name, count: count, forward: forward)
        case .retain(let name, let operation, let variables):
            retains[name] = roots.retain(operation, variables: variables)
        case .release(let name):
            retains[name]?.dispose()
        case .invalidate(let id):
            do { try environment.invalidateRecord(id) } catch { self.error(error, index) }
        case .invalidateStore:
            subscriptions.notify(.none(in: store))
            roots.didNotify(invalidateStore: true)
        case .gc:
            // relay v18's __gc(): only the roots count (not what subscriptions read).
            let removed: [String]
            do {
                removed = Array(try roots.collect(in: store))
            } catch {
                let message = (error as? RelayArenaError)?.description ?? "\(error)"
                emit("{\"event\":\"error\",\"step\":\(index),\"message\":\(ReadValue.string(message).jsonText)}")
                return
            }
            emit(
                "{\"event\":\"gc\",\"removed\":["
                    + removed.sorted().map { ReadValue.string($0).jsonText }.joined(separator: ",") + "]}")
        case .check(let operation, let variables):
            let status: String
            switch roots.check(operation, variables: variables, in: store) {
            case .available: status = "available"
            case .stale: status = "stale"
            case .missing: status = "missing"
            }
            emit("{\"event\":\"check\",\"status\":\"\(status)\"}")
        case .advanceClock(let ms):
            clock.now += ms
        case .store:
            emit("{\"event\":\"store\",\"records\":" + String(decoding: store.relayJSON(), as: UTF8.self) + "}")
        }
    }

    private func error(_ error: any Error, _ index: Int) {
        let message = (error as? RelayArenaError)?.description ?? "\(error)"
        emit("{\"event\":\"error\",\"step\":\(index),\"message\":\(ReadValue.string(message).jsonText)}")
    }

    /// Commits the response through the publish queue (rolling `revert` back in the same run;
    /// nothing changes when the response is bad: an `error` event), points the subscriptions
    /// whose refetch it answers at the refetch query's result, then notifies.
    private func publish(
        _ operation: OperationArtifact, _ variables: Variables, _ response: [UInt8], rootID: String,
        revert: OptimisticUpdate?, index: Int
    ) {
        let request = GraphQLRequest(operation: operation, variables: variables)
        do {
            let payload = try ResponseNormalizer.normalize(
                response: response, plan: NormalizationPlan(operation: operation, variables: request.variables),
                rootID: rootID)
            try environment.run(
                commit: Commit(payload: payload, source: request, rootID: rootID), reverting: revert.map { [$0] } ?? [],
                beforeNotify: { repoint(answeredBy: request) })
        } catch {
            self.error(error, index)
        }
    }

    /// relay's `loadNext` / `loadPrevious`: the page query's variables from the connection's page
    /// info in the subscription's data, or `skipped` where relay sends nothing (no data, or this
    /// subscription's last page request unanswered). Like relay, `hasNextPage` is not checked.
    private func loadMore(_ name: String, count: Int, forward: Bool) {
        guard let id = ids[name], let selector = subscriptions.selector(id),
            case .fragment(let fragment) = selector.node,
            let metadata = compiled.refetch[fragment.name], let connection = metadata.connection,
            let query = compiled.documents.operations[metadata.operation]
        else { return }  // checked before running
        func skipped(_ why: String) { emit("{\"event\":\"request\",\"skipped\":\(ReadValue.string(why).jsonText)}") }
        if pendingPages[name] != nil { return skipped("a page request of `\(name)` is still unanswered") }
        guard let data = selector.read(store).data, !data.isNull else { return skipped("the fragment's data is null") }
        let cursor = connection.state(in: data, forward: forward).cursor
        let given = connection.pageArguments(count: count, cursor: cursor, forward: forward)
        let variables = metadata.refetchVariables(
            query: query, owner: selector.owner, fragment: selector.variables, given: given, dataID: selector.dataID,
            in: store)
        let request = GraphQLRequest(operation: query, variables: variables)
        pendingPages[name] = request
        emit(
            "{\"event\":\"request\",\"name\":\(ReadValue.string(name).jsonText),\"operation\":"
                + "\(ReadValue.string(query.name).jsonText),\"variables\":\(request.variablesJSON)}")
    }

    /// Points the subscriptions whose refetch `request` answers at the refetch query's result.
    private func repoint(answeredBy request: GraphQLRequest) {
        for (name, page) in pendingPages where page == request { pendingPages[name] = nil }
        let operation = request.operation
        let answered = pending.filter { $0.value == request }.compactMap { name, _ in ids[name].map { (name, $0) } }
        for (name, id) in answered.sorted(by: { $0.1 < $1.1 }) {
            pending[name] = nil
            guard let selector = subscriptions.selector(id), case .fragment(let fragment) = selector.node,
                let metadata = compiled.refetch[fragment.name],
                let dataID = metadata.fragmentRecord(query: operation, variables: request.variables, in: store)
            else { continue }  // the result holds no record there: the subscription stays as it was
            let fragmentVariables =
                (try? operation.fragmentVariables(
                    of: fragment, variables: request.variables, fragments: compiled.documents.fragments))
                ?? request.variables
            subscriptions.repoint(
                id,
                to: ReadSelector(
                    node: .fragment(fragment), dataID: dataID, variables: fragmentVariables,
                    owner: FragmentOwner(operation: operation, variables: request.variables)))
        }
    }
}
