// The protocols generated code conforms to (fragments, operations, their views and variables) and
// the fragment pointer that views pass down: Relay.swift's `@Fragment` contract without SwiftUI.

/// A generated fragment type: `fragment F on T { … }` becomes `enum F: Fragment` whose `Data` is
/// a view with exactly F's selections as properties.
public protocol Fragment {
    associatedtype Data: SelectionView
    /// The reader AST, embedded by the generator so the runtime never parses GraphQL.
    static var artifact: FragmentArtifact { get }
    /// How many storage keys the views of this fragment read (slots of a read's key cache).
    static var storageKeyCount: Int { get }
}

/// A generated operation type: a value holds the variables; `Data` is the root view.
public protocol GraphQLOperation: Sendable, Hashable {
    associatedtype Variables: OperationVariables
    associatedtype Data: SelectionView
    static var artifact: OperationArtifact { get }
    static var storageKeyCount: Int { get }
    var variables: Variables { get }
}

extension GraphQLOperation {
    /// The normalization plan for a response to this operation with these variables.
    public func plan() throws -> NormalizationPlan {
        try NormalizationPlan(operation: Self.artifact, variables: variables.asJSON)
    }
}

/// Typed operation variables (a generated struct) as the JSON the runtime formats keys from.
public protocol OperationVariables: Sendable, Hashable {
    var asJSON: Variables { get }
}

/// Operations without variables use this.
public struct NoVariables: OperationVariables {
    public init() {}
    public var asJSON: Variables { [:] }
}

/// A view over one selection set of one record: a generated struct holding a `RecordView`.
/// The property is spelled `__view` because GraphQL reserves `__` names, so no field collides.
public protocol SelectionView: ViewListElement {
    init(__view: RecordView)
    var __view: RecordView { get }
    var __requiredHold: Bool { get }
}

extension SelectionView {
    /// Every `@required` field of the selection holds a value (generated views with one say so
    /// themselves); a nullable list item reads `nil` when not.
    public var __requiredHold: Bool { true }

    public static func _listElement(_ record: RecordRef?, parent: RecordView) -> Self {
        Self(__view: RecordView(parent, record: record ?? RecordView.emptyRecord))
    }
}

/// Where a fragment's data lives: the record's data ID and the variables of the operation that
/// fetched it (relay's `__id` / `__fragments` / `__fragmentOwner`). Holds no store memory, so it
/// may outlive the snapshot it came from and cross isolation domains.
public struct FragmentPointer<F: Fragment>: Sendable, Hashable {
    public let dataID: String
    /// The owner's effective variables (fragment argument defaults are added when reading).
    public let variables: Variables
    public let owner: FragmentOwner?

    public init(dataID: String, variables: Variables = [:], owner: FragmentOwner? = nil) {
        self.dataID = dataID
        self.variables = variables
        self.owner = owner
    }
}

/// A GraphQL enum as a Swift enum; values the schema did not have when generating are kept in
/// `__unknown(raw)` instead of failing the read.
public protocol GraphQLEnum: Sendable, Hashable, ScalarListElement, VariableValue {
    init(rawValue: String)
    /// Matches the borrowed bytes without making a `String` for known values.
    init(utf8: BorrowedUTF8)
    var rawValue: String { get }
}

extension GraphQLEnum {
    public init(utf8: BorrowedUTF8) { self.init(rawValue: utf8.string) }
    public static func _fromJSON(_ value: JSONValue) -> Self? {
        if case .string(let s) = value { return Self(rawValue: s) }
        return nil
    }
}

/// A fragment's `@argumentDefinitions` as a generated struct of typed properties (defaults
/// applied by its initializer). `asJSON` is what a pointer carries in its variables; `init(variables:)`
/// reads the values back from a read's variables (the owner's plus the fragment's defaults).
public protocol FragmentArguments: Sendable, Hashable {
    init(variables: Variables)
    var asJSON: Variables { get }
}

/// A generated fragment with `@argumentDefinitions`: `F.Arguments` types them.
public protocol FragmentWithArguments: Fragment {
    associatedtype Arguments: FragmentArguments
}

extension FragmentPointer where F: FragmentWithArguments {
    /// A pointer whose reads use `arguments` for the fragment's argument variables, on top of
    /// `variables` (the owner's, when the pointer stands for a spread in an operation).
    public init(dataID: String, arguments: F.Arguments, variables: Variables = [:], owner: FragmentOwner? = nil) {
        self.init(
            dataID: dataID, variables: variables.merging(arguments.asJSON) { _, argument in argument }, owner: owner)
    }

    /// The typed arguments a read at this pointer uses: those it carries (a spread's `@arguments`
    /// or `init(dataID:arguments:)`), the fragment's defaults for the others.
    public var arguments: F.Arguments { F.Arguments(variables: effectiveVariables) }
}
