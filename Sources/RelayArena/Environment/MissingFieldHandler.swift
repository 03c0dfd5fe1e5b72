// relay's missing field handlers (cache redirects): when `check` finds a field the store never
// fetched, a handler may answer it from what the store holds — `node(id:)` or `user(id:)` as the
// record a list already loaded — so a detail screen renders without a request. What handlers
// answer is written into the store (as relay's `check` publishes it), so readers read it.

/// The field a handler is asked about.
public struct MissingField: Sendable {
    public var name: String
    public var alias: String?
    /// Its arguments with the operation's variables applied.
    public var args: [String: JSONValue]
}

/// One handler (relay's `MissingFieldHandler`): given the missing field and its parent record's
/// data ID and type, a scalar's value, a linked record's data ID, or a plural field's data IDs;
/// `nil` when it does not know.
public enum MissingFieldHandler: Sendable {
    case scalar(@Sendable (_ field: MissingField, _ parentID: String, _ parentType: String) -> JSONValue?)
    case linked(@Sendable (_ field: MissingField, _ parentID: String, _ parentType: String) -> String?)
    case pluralLinked(@Sendable (_ field: MissingField, _ parentID: String, _ parentType: String) -> [String?]?)

    /// relay's documented handler: `node(id: X)` on the root is the record `X`.
    public static let nodeByID = MissingFieldHandler.linked { field, parentID, _ in
        guard parentID == RecordStore.rootID, field.name == "node", case .string(let id)? = field.args["id"] else {
            return nil
        }
        return id
    }
}

/// What the handlers answered for an operation: fields to write, as (record, storage key, value).
struct MissingFieldResolver {
    let snapshot: StoreSnapshot
    let variables: Variables
    let handlers: [MissingFieldHandler]
    private(set) var writes: [(dataID: String, key: String, field: RecordField)] = []

    init(snapshot: StoreSnapshot, variables: Variables, handlers: [MissingFieldHandler]) {
        self.snapshot = snapshot
        self.variables = variables
        self.handlers = handlers
    }

    /// Walks `selections` from `dataID` as the data checker does; at each field the store lacks,
    /// asks the handlers of its kind in order, and follows a link they gave. `depth` bounds the
    /// walk by the selections' own nesting.
    mutating func walk(_ selections: [Selection], dataID: String, depth: Int = 0) {
        guard depth < 1000, case .record(let record) = snapshot.record(dataID) else { return }
        let typename = snapshot.typename(of: record).string
        for selection in selections {
            switch selection {
            case .scalarField(let f):
                let key = StorageKey.of(f, variables)
                guard key != "__typename", key != "__id", !f.isClientExtension, snapshot.field(record, key) == nil,
                    !(key == "id" && f.alias == nil && dataID.hasPrefix("client:"))  // a client record has none
                else { continue }
                for case .scalar(let handle) in handlers {
                    if let value = handle(missing(f.name, f.alias, f.args), dataID, typename) {
                        writes.append((dataID, key, .value(value)))
                        break
                    }
                }
            case .linkedField(let f):
                let key = StorageKey.of(f, variables)
                switch snapshot.field(record, key) {
                case .link(let id)?:
                    walk(f.selections, dataID: snapshot.text(id).string, depth: depth + 1)
                case .links(let ids)?:
                    for id in ids {
                        if let id { walk(f.selections, dataID: snapshot.text(id).string, depth: depth + 1) }
                    }
                case nil:
                    guard !f.isClientExtension else { continue }
                    let field = missing(f.name, f.alias, f.args)
                    if f.plural {
                        for case .pluralLinked(let handle) in handlers {
                            // relay writes a plural answer only when every item is a record the store has.
                            guard let ids = handle(field, dataID, typename), ids.allSatisfy({ $0.map(exists) ?? false })
                            else { continue }
                            writes.append((dataID, key, .links(ids)))
                            for id in ids {
                                if let id { walk(f.selections, dataID: id, depth: depth + 1) }
                            }
                            break
                        }
                    } else {
                        for case .linked(let handle) in handlers {
                            // … and a link only to a record the store has.
                            guard let id = handle(field, dataID, typename), exists(id) else { continue }
                            writes.append((dataID, key, .link(id)))
                            walk(f.selections, dataID: id, depth: depth + 1)
                            break
                        }
                    }
                default:
                    continue
                }
            case .condition(let c):
                if (variables[c.variable] ?? .null).isTruthy == c.passingValue {
                    walk(c.selections, dataID: dataID, depth: depth)
                }
            case .inlineFragment(let i):
                // Into the fragments that may apply: a handler is only asked about fields this
                // record's type can have.
                if i.abstractKey != nil || i.type == typename || dataID == RecordStore.rootID {
                    walk(i.selections, dataID: dataID, depth: depth)
                }
            case .typeDiscriminator, .fragmentSpread, .aliasedInlineFragment:
                continue  // (spreads and aliases are reader ASTs' only)
            }
        }
    }

    private func exists(_ dataID: String) -> Bool {
        if case .record = snapshot.record(dataID) { return true }
        return false
    }

    private func missing(_ name: String, _ alias: String?, _ args: [Argument]) -> MissingField {
        var resolved: [String: JSONValue] = [:]
        for arg in args { resolved[arg.name] = arg.value.resolve(variables) }
        return MissingField(name: name, alias: alias, args: resolved)
    }
}
