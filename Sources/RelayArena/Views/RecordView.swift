// A view is `{snapshot, record, scope}` (FlatBuffers' `{owner, offset}`): one lookup primitive,
// `value(_:)`, that every generated accessor is a one-liner over; nothing is copied out.
// What only generated code calls (`FieldKey`, the lookups, the type and condition tests, the
// pointers it hands out) is `@_spi(Generated)`: generated files import RelayArena with that SPI,
// a user's own files do not see it, and it changes with the generator.

/// A storage key as generated code names it: a slot in the read's key cache plus either the key
/// text (every argument a literal) or a field whose key depends on variables.
@_spi(Generated) public struct FieldKey {
    let slot: Int
    let literal: StaticString
    let dynamic: DynamicStorageKey?

    public init(_ slot: Int, _ literal: StaticString) {
        self.slot = slot
        self.literal = literal
        self.dynamic = nil
    }

    public init(_ slot: Int, _ dynamic: DynamicStorageKey) {
        self.slot = slot
        self.literal = ""
        self.dynamic = dynamic
    }
}

/// A field whose storage key is formatted from the read's variables (once per read, then cached).
@_spi(Generated) public final class DynamicStorageKey: Sendable {
    let name: String
    let args: [Argument]
    public init(name: String, args: [Argument]) {
        self.name = name
        self.args = args
    }
}

/// What one read shares between all the views it hands out: its variables and a cache from key
/// slot to store symbol. The cache lives per read, not per store, because symbols are only
/// guaranteed stable while the read lock is held, and a read's views never leave its snapshot
/// (they are not `Sendable`), so filling the cache lazily needs no atomics.
final class ReadScope {
    let variables: Variables
    let owner: FragmentOwner?
    let symbols: KeySymbolCache

    /// Slot states: 0 not looked up yet, `absent` not interned in this store, else the symbol.
    static let absent = UInt32.max

    init(variables: Variables, owner: FragmentOwner?, keyCount: Int) {
        self.variables = variables
        self.owner = owner
        symbols = KeySymbolCache(count: keyCount)
    }

    deinit { symbols.deallocate() }

    @inline(__always)
    func symbol(_ key: FieldKey, _ snapshot: StoreSnapshot) -> UInt32 {
        let cached = symbols[key.slot]
        if cached != 0 { return cached }
        let resolved = resolve(key, snapshot)
        symbols[key.slot] = resolved
        return resolved
    }

    private func resolve(_ key: FieldKey, _ snapshot: StoreSnapshot) -> UInt32 {
        let found: UInt32
        if let dynamic = key.dynamic {
            let text = StorageKey.format(name: dynamic.name, args: dynamic.args, variables: variables)
            found = snapshot.symbol(text)?.raw ?? 0
        } else {
            found = snapshot.reader.findSymbol(key.literal)
        }
        return found == 0 ? Self.absent : found
    }
}

/// The untyped view generated views wrap (their `__view`). Valid inside the `withSnapshot` closure
/// it came from. Its record's identity is API; its field lookups are for generated code.
public struct RecordView {
    public let snapshot: StoreSnapshot
    /// `emptyRecord` when the view stands for missing data (every field reads as absent).
    public let record: RecordRef
    let scope: ReadScope

    /// No record has this index, so the C lookup answers "absent" for every key.
    static let emptyRecord = RecordRef(index: UInt32.max)

    init(snapshot: StoreSnapshot, record: RecordRef, scope: ReadScope) {
        self.snapshot = snapshot
        self.record = record
        self.scope = scope
    }

    init(_ parent: RecordView, record: RecordRef) {
        self.init(snapshot: parent.snapshot, record: record, scope: parent.scope)
    }

    /// Whether this view stands for a record that was missing or null where non-null was declared.
    public var isEmpty: Bool { record == Self.emptyRecord }

    /// The one lookup primitive: the stored value, `nil` when absent (never fetched).
    @inline(__always)
    @_spi(Generated) public func value(_ key: FieldKey) -> FieldValue? {
        let symbol = scope.symbol(key, snapshot)
        if symbol == ReadScope.absent { return nil }
        return snapshot.reader.field(record.index, symbol)
    }

    /// The data ID of the record (what pointers carry).
    public var dataID: String {
        isEmpty ? "" : snapshot.text(snapshot.id(of: record)).string
    }

    /// The record's `__typename`: `""` for an empty view, and for a record that has none (a
    /// store file's record with no `__typename`, which relay allows); no GraphQL type is `""`.
    public var typename: String { typenameUTF8.string }

    public var typenameUTF8: BorrowedUTF8 {
        if isEmpty { return .empty }
        return snapshot.typename(of: record)
    }

    /// `@include(if: $v)` (passing true) / `@skip(if: $v)` (passing false) with the read's variables.
    @_spi(Generated) public func passes(_ variable: String, _ passingValue: Bool) -> Bool {
        (scope.variables[variable] ?? .null).isTruthy == passingValue
    }

    /// A concrete type condition (`... on Droid`).
    @_spi(Generated) public func isType(_ type: StaticString) -> Bool {
        guard !isEmpty else { return false }
        return typenameUTF8.equals(type)
    }

    /// An abstract type condition (`... on Character`), answered by the type record
    /// `client:__type:<typename>` the normalizer wrote (`__isCharacter: true`).
    @_spi(Generated) public func implements(_ abstractKey: String) -> Bool {
        guard !isEmpty, !typenameUTF8.isEmpty,
            case .record(let typeRecord) = snapshot.record("client:__type:" + typename),
            case .bool(let b)? = snapshot.field(typeRecord, abstractKey)
        else { return false }
        return b
    }

    /// A pointer for a fragment this view's selection spreads (generated `asFragment()`).
    @_spi(Generated) public func pointer<G: Fragment>(to: G.Type = G.self) -> FragmentPointer<G> {
        FragmentPointer(dataID: dataID, variables: scope.variables, owner: scope.owner)
    }

    /// A pointer for a spread with `@arguments`: the read's variables with each argument, resolved
    /// against them, on top (relay's fragment variables). An argument whose variable is unset is
    /// left out, so the fragment's default applies.
    @_spi(Generated)
    public func pointer<G: Fragment>(to: G.Type = G.self, arguments: [Argument]) -> FragmentPointer<G> {
        var variables = scope.variables
        for argument in arguments {
            variables[argument.name] = argument.value.resolve(scope.variables)
        }
        return FragmentPointer(dataID: dataID, variables: variables, owner: scope.owner)
    }
}

extension RecordView {
    /// The data of an `@inline` fragment this view's selection spreads (generated
    /// `readInlineData(_:)`, relay's `readInlineData`): the fragment's view over the same record,
    /// read with the fragment's variables (the spread's `@arguments`, else its defaults).
    @_spi(Generated) public func inlineData<G: Fragment>(_: G.Type = G.self, arguments: [Argument] = []) -> G.Data {
        let artifact = G.artifact
        let fragment = InlineDataFragment(argumentDefinitions: artifact.argumentDefinitions, selections: [])
        let variables = fragment.variables(args: arguments, parent: scope.variables)
        let inner = ReadScope(variables: variables, owner: scope.owner, keyCount: G.storageKeyCount)
        return G.Data(__view: RecordView(snapshot: snapshot, record: record, scope: inner))
    }
}
