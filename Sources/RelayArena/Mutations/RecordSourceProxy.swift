// relay's record proxies (RelayRecordSourceProxy, RelayRecordProxy over a RecordSourceMutator):
// what an updater reads and writes. Reads go to the updater's own writes first, then to the
// response being committed (if any), then to the store; writes stay in the proxy until the
// updater returned, then are published as one payload. An updater that throws writes nothing.

/// The store as an updater sees it (relay's `RecordSourceProxy`; for a mutation's updater also
/// its `RecordSourceSelectorProxy`: `rootField`).
public final class RecordSourceProxy {
    /// What the connection handler had to warn of while it merged pages (relay's `warning`s).
    var logEvents: [LogEvent] = []
    /// A value an updater reads or writes: a scalar (any JSON), a link, or a list of links.
    typealias Field = RecordField

    final class Written {
        var typename: String
        /// Made by `create` (or over a deleted record): the records below it are not read.
        var fresh: Bool
        var fields: [String: Field] = [:]
        var order: [String] = []
        init(typename: String, fresh: Bool) {
            self.typename = typename
            self.fresh = fresh
        }
    }

    enum Entry {
        case deleted
        case record(Written)
    }

    let store: RecordStore
    private let payload: (any SnapshotReadable)?
    /// The operation whose response is committed, read at its root (`rootField`).
    private let selector: ReadSelector?
    private var written: [String: Entry] = [:]
    private var writtenOrder: [String] = []
    private(set) var invalidatedIDs: [String] = []
    /// Whether the updater called `invalidateStore()`.
    public private(set) var isStoreInvalidated = false
    /// Pages merged into lists the store holds, written in the arena when published
    /// (ConnectionHandling.swift); a read or write of such a list through the proxy makes it an
    /// ordinary write first.
    private(set) var splices: [ConnectionSplice] = []
    /// Whether everything written so far came from the connection handler's page merges (no
    /// delete, no declarative directive, no updater): a page may then be merged by the store's
    /// node index, which knows the store and not the proxy's writes.
    var pageMergesOnly = true

    init(store: RecordStore, payload: (any SnapshotReadable)? = nil, selector: ReadSelector? = nil) {
        self.store = store
        self.payload = payload
        self.selector = selector
    }

    // MARK: Records

    /// The record with this data ID; `nil` when it is unknown or deleted.
    public func get(_ dataID: String) -> RecordProxy? {
        typename(of: dataID).map { _ in RecordProxy(source: self, dataID: dataID) }
    }

    /// Whether the store (as the updater sees it) holds this record, holds it deleted (relay's
    /// `null`), or does not know it (relay's `undefined`).
    public func state(of dataID: String) -> RecordAvailability {
        switch written[dataID] {
        case .deleted?: return .deleted
        case .record?: return .exists
        case nil:
            for layer in layers {
                switch layer.withSnapshot({ $0.record(dataID) }) {
                case .record: return .exists
                case .deleted: return .deleted
                case .unknown: continue
                }
            }
            return .unknown
        }
    }

    /// Creates a record; a data ID that names a record already is an error (relay's invariant),
    /// one that was deleted may be created again.
    @discardableResult
    public func create(_ dataID: String, typename: String) throws -> RecordProxy {
        guard state(of: dataID) != .exists else {
            throw RelayArenaError(
                code: .misuse, message: "cannot create a record with id `\(dataID)`: this record already exists")
        }
        write(dataID, .record(Written(typename: typename, fresh: true)))
        return RecordProxy(source: self, dataID: dataID)
    }

    /// Deletes a record (it becomes relay's `null` record); the root cannot be deleted.
    public func delete(_ dataID: String) throws {
        guard dataID != RecordStore.rootID else {
            throw RelayArenaError(code: .misuse, message: "cannot delete the root record")
        }
        pageMergesOnly = false
        splices.removeAll { $0.dataID == dataID }
        write(dataID, .deleted)
    }

    /// `client:root`, created (type `__Root`) when the store has none.
    public var root: RecordProxy {
        if get(RecordStore.rootID) == nil {
            write(RecordStore.rootID, .record(Written(typename: "__Root", fresh: true)))
        }
        return RecordProxy(source: self, dataID: RecordStore.rootID)
    }

    /// A linked field of the operation's root (relay's `getRootField`): a mutation's field, read
    /// from the response being committed. `nil` when the operation selects no such singular field.
    public func rootField(_ name: String) -> RecordProxy? {
        guard let (root, key) = rootKey(name, plural: false), case .link(let id?)? = field(root, key) else {
            return nil
        }
        return get(id)
    }

    /// A plural linked field of the operation's root (relay's `getPluralRootField`).
    public func pluralRootField(_ name: String) -> [RecordProxy?]? {
        guard let (root, key) = rootKey(name, plural: true), case .links(let ids)? = field(root, key) else {
            return nil
        }
        return ids.map { $0.flatMap { get($0) } }
    }

    /// The root's data ID and the storage key of its linked field `name` (relay matches by name).
    private func rootKey(_ name: String, plural: Bool) -> (String, String)? {
        guard let selector, case .operation(let operation) = selector.node else { return nil }
        for case .linkedField(let f) in operation.reader where f.name == name && f.plural == plural {
            return (selector.dataID, f.storageKey(selector.variables))
        }
        return nil
    }

    /// relay's `generateClientID`: `<id>:<key>[:<index>]`, with `client:` in front unless the ID
    /// has it already.
    public static func clientID(_ id: String, _ key: String, _ index: Int? = nil) -> String {
        let text = id + ":" + key + (index.map { ":\($0)" } ?? "")
        return text.hasPrefix("client:") ? text : "client:" + text
    }

    /// Marks the whole store outdated when the update is committed (ignored in an optimistic one,
    /// as relay ignores it).
    public func invalidateStore() { isStoreInvalidated = true }

    // MARK: Reading through the layers

    private var layers: [any SnapshotReadable] { payload.map { [$0, store] } ?? [store] }

    func typename(of dataID: String) -> String? {
        switch written[dataID] {
        case .deleted?: return nil
        case .record(let w)?: return w.typename
        case nil:
            for layer in layers {
                let found: String?? = layer.withSnapshot { s in
                    switch s.record(dataID) {
                    case .record(let r): return .some(s.typename(of: r).string)
                    case .deleted: return .some(nil)
                    case .unknown: return nil
                    }
                }
                if let found { return found }
            }
            return nil
        }
    }

    /// The field under `key`, `nil` when absent.
    func field(_ dataID: String, _ key: String) -> Field? {
        if !splices.isEmpty { spliceToWrite(dataID, key) }
        var fresh = false
        if case .record(let w)? = written[dataID] {
            if let f = w.fields[key] { return f }
            fresh = w.fresh
        }
        guard !fresh else { return nil }
        for layer in layers {
            let found: Field?? = layer.withSnapshot { s in
                switch s.record(dataID) {
                case .unknown: return nil
                case .deleted: return .some(nil)
                case .record(let r):
                    guard let value = s.field(r, key) else { return layer === payload ? nil : .some(nil) }
                    return .some(Self.field(value, s))
                }
            }
            if let found { return found }
        }
        return nil
    }

    /// The IDs a plural link names (no record looked up), `nil` when absent or not a list.
    func linkedIDs(_ dataID: String, _ key: String) -> [String?]? {
        guard case .links(let ids)? = field(dataID, key) else { return nil }
        return ids
    }

    /// For each of `ids`, the ID its singular link `key` names (`nil`: none), reading each layer
    /// once for all of them (a connection's edges' nodes).
    func linkedID(ofEach ids: [String], _ key: String) -> [String?] {
        var result = [String?](repeating: nil, count: ids.count)
        var pending: [Int] = []
        for (i, id) in ids.enumerated() {
            switch written[id] {
            case .deleted?: continue
            case .record(let w)?:
                if let f = w.fields[key] {
                    if case .link(let linked) = f { result[i] = linked }
                    continue
                }
                if w.fresh { continue }
                pending.append(i)
            case nil: pending.append(i)
            }
        }
        for layer in layers where !pending.isEmpty {
            let below = layer !== store
            pending = layer.withSnapshot { s -> [Int] in
                guard let k = s.symbol(key) else { return below ? pending : [] }
                var still: [Int] = []
                for i in pending {
                    switch s.record(ids[i]) {
                    case .unknown: still.append(i)
                    case .deleted: continue
                    case .record(let r):
                        guard let value = s.field(r, k) else {
                            if below { still.append(i) }
                            continue
                        }
                        if case .link(let symbol) = value { result[i] = s.text(symbol).string }
                    }
                }
                return still
            }
        }
        return result
    }

    /// The keys of every field the record has, below and written.
    func fieldKeys(_ dataID: String) -> [String] {
        var keys: [String] = []
        var fresh = false
        if case .record(let w)? = written[dataID] {
            keys = w.order
            fresh = w.fresh
        }
        if !fresh {
            for layer in layers {
                layer.withSnapshot { s in
                    if case .record(let r) = s.record(dataID) { keys += s.fieldKeys(r) }
                }
            }
        }
        var seen = Set<String>()
        return keys.filter { seen.insert($0).inserted }
    }

    private static func field(_ value: FieldValue, _ s: StoreSnapshot) -> Field {
        switch value {
        case .null: return .value(.null)
        case .bool(let b): return .value(.bool(b))
        case .int(let i): return .value(.int(i))
        case .number(let text): return .value(Double(text.string).map(JSONValue.double) ?? .null)
        case .string(let text): return .value(.string(text.string))
        case .json(let text): return .value((try? JSONValue(parsing: text.string)) ?? .null)
        case .link(let symbol): return .link(s.text(symbol).string)
        case .links(let list): return .links(list.map { $0.map { s.text($0).string } })
        }
    }

    // MARK: Writing

    private func write(_ dataID: String, _ entry: Entry) {
        if written[dataID] == nil { writtenOrder.append(dataID) }
        written[dataID] = entry
    }

    /// The record's entry among the writes, copied on first write from what is below (its type).
    func writable(_ dataID: String) -> Written? {
        if case .record(let w)? = written[dataID] { return w }
        guard let typename = typename(of: dataID) else { return nil }
        let w = Written(typename: typename, fresh: false)
        write(dataID, .record(w))
        return w
    }

    func set(_ dataID: String, _ key: String, _ field: Field) {
        if !splices.isEmpty { splices.removeAll { $0.dataID == dataID && $0.key == key } }
        guard let w = writable(dataID) else { return }
        if w.fields.updateValue(field, forKey: key) == nil { w.order.append(key) }
    }

    /// Forgets a field written here, so that what is below shows again.
    func unset(_ dataID: String, _ key: String) {
        guard case .record(let w)? = written[dataID], w.fields.removeValue(forKey: key) != nil else { return }
        w.order.removeAll { $0 == key }
    }

    /// Whether the store holds a link list under `key` that this proxy has not written.
    func storeHoldsLinks(_ dataID: String, _ key: String) -> Bool {
        if splices.contains(where: { $0.dataID == dataID && $0.key == key }) { return false }
        if case .record(let w)? = written[dataID], w.fresh || w.fields[key] != nil { return false }
        if case .deleted? = written[dataID] { return false }
        if let payload,
            payload.withSnapshot({ s in
                if case .unknown = s.record(dataID) { return false }
                return true
            })
        {
            return false
        }
        return store.withSnapshot { s in
            guard case .record(let r) = s.record(dataID), case .links? = s.field(r, key) else { return false }
            return true
        }
    }

    /// Records a page merged into the store's list (see `splices`).
    func splice(_ dataID: String, _ key: String, front: [String], back: [String], nodes: [String]) {
        splices.append(
            ConnectionSplice(dataID: dataID, key: key, front: front, back: back, nodes: nodes))
    }

    /// A page merged into a list that is now read or written here: the list as it will be,
    /// written here.
    private func spliceToWrite(_ dataID: String, _ key: String) {
        guard let i = splices.firstIndex(where: { $0.dataID == dataID && $0.key == key }) else { return }
        let splice = splices.remove(at: i)
        let below: [String?] =
            store.withSnapshot { s in
                guard case .record(let r) = s.record(dataID), case .links(let list)? = s.field(r, key) else {
                    return nil
                }
                return list.map { $0.map { s.text($0).string } }
            } ?? []
        set(dataID, key, .links(splice.front.map { $0 } + below + splice.back.map { $0 }))
    }

    func invalidate(_ dataID: String) {
        if !invalidatedIDs.contains(dataID) { invalidatedIDs.append(dataID) }
    }

    /// Data IDs written, in order.
    var writtenIDs: [String] { writtenOrder }

    /// The writes as relay toJSON text (a record's written fields only: publish merges them).
    func relayJSON() -> RelayJSONWriter {
        var text = RelayJSONWriter()
        for dataID in writtenOrder {
            guard case .record(let w)? = written[dataID] else {
                text.deleted(dataID)
                continue
            }
            text.record(dataID, typename: w.typename, fields: w.order.lazy.map { ($0, w.fields[$0]!) })
        }
        return text
    }
}
