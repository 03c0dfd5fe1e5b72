// Reader selections + schema types → nested view structs whose properties are one-liners over
// `RecordView`. Spreads become `asFragment()` (masking), type conditions `as<Type>`, conditions optionals.
import RelayArena

/// A generation problem that has no GraphQL position of its own (reported at the definition).
struct UnsupportedSelection: Error {
    var message: String
}

/// Emits the views of one fragment or operation; owns that file's storage-key slots.
struct ViewEmitter {
    let schema: SchemaModel
    private(set) var keyCount = 0
    private var literalSlots: [String: Int] = [:]
    private var dynamicSlots: [String: Int] = [:]
    /// File-scope declarations: keys formatted from variables (in slot order) and the selections
    /// a `@catch` reads again.
    private(set) var fileDeclarations: [String] = []
    private(set) var enumsUsed: Set<String> = []
    private var caughtCount = 0

    /// Prefixes file-scope names (the definition's name), so files can be combined into one.
    let prefix: String
    /// The definition's `@throwOnFieldError` (or `@catch`): `@semanticNonNull` fields are non-optional.
    let strictDocument: Bool
    /// Inside a `@catch`ed selection, where `@semanticNonNull` fields are non-optional too.
    private var withinCatch = false

    init(schema: SchemaModel, prefix: String, strict: Bool = false) {
        self.schema = schema
        self.prefix = prefix
        self.strictDocument = strict
    }

    /// relay's typegen: a `@semanticNonNull` field is non-null where a field error would throw or be caught.
    private var strict: Bool { strictDocument || withinCatch }

    typealias Conditions = [(variable: String, passingValue: Bool)]

    private struct Item {
        var selection: Selection
        var conditions: Conditions
    }

    /// `public struct name: SelectionView { … }` at `indent` levels.
    mutating func viewStruct(_ name: String, _ selections: [Selection], parentType: String, indent: Int) throws
        -> String
    {
        var items: [Item] = []
        var inline: [(type: String, abstractKey: String?, items: [Selection], conditions: Conditions)] = []
        collect(selections, parentType: parentType, conditions: [], items: &items, inline: &inline)
        items = merged(items)

        var members: [String] = []
        var nested: [String] = []
        var identifiable = false
        var spreads: [String] = []
        // relay's `@required`: what must hold for this view to exist (its parent reads nil else).
        var requiredChecks: [String] = []
        for item in items {
            switch item.selection {
            case .scalarField(let f):
                let (lines, isID) = try scalarProperty(f, parentType: parentType, conditions: item.conditions)
                members += lines
                identifiable = identifiable || isID
                if f.required != nil {
                    let k = key(f.storageKey, name: f.name, args: f.args)
                    requiredChecks.append(guardedCheck(item.conditions, "__view.isPresent(\(k))"))
                }
            case .linkedField(let f):
                guard
                    let type = schema.fieldType(
                        f.handle?.fieldName ?? f.name, on: parentType, semantic: strict || f.catchTo == .result)
                else {
                    throw UnsupportedSelection(message: "no field \(f.name) on \(parentType)")
                }
                let typeName = SwiftName.typeName(f.responseKey)
                // The property first, so storage-key slots follow the order fields are written in.
                let (property, check) = try linkedProperty(
                    f, type: type, typeName: typeName, conditions: item.conditions)
                members.append(property)
                if let check { requiredChecks.append(check) }
                let outer = withinCatch
                withinCatch = withinCatch || f.catchTo != nil
                nested.append(try viewStruct(typeName, f.selections, parentType: type.namedType, indent: indent + 1))
                withinCatch = outer
            case .fragmentSpread(let spread) where spread.inlineData != nil:
                // relay's `readInlineData`: the fragment's own view, not a pointer; its fields stay masked here.
                let optional = item.conditions.isEmpty ? "" : "?"
                let call = Self.inlineDataCall(spread)
                members.append(
                    "/// `@inline` `\(spread.name)`: its data, read from this record with its own variables.")
                members.append(
                    "public func readInlineData(_: \(spread.name).Type) -> \(spread.name).Data\(optional) { \(guarded(item.conditions, call)) }"
                )
            case .fragmentSpread(let spread):
                let optional = item.conditions.isEmpty ? "" : "?"
                let body = guarded(item.conditions, Self.pointerCall(spread))
                members.append("/// Masked: pass this pointer to the view that declared `\(spread.name)`.")
                members.append("public func asFragment() -> FragmentPointer<\(spread.name)>\(optional) { \(body) }")
                spreads.append(
                    "public var \(SwiftName.identifier(Self.fragmentsMember(spread.name))): FragmentPointer<\(spread.name)>\(optional) { \(body) }"
                )
            case .aliasedInlineFragment(let alias):
                members += try aliasedMember(
                    alias, parentType: parentType, conditions: item.conditions, nested: &nested, indent: indent)
            default:
                continue
            }
        }
        for group in inline {
            let typeName = "As" + SwiftName.typeName(group.type)
            nested.append(try viewStruct(typeName, group.items, parentType: group.type, indent: indent + 1))
            let check =
                group.abstractKey.map { "__view.implements(\(SwiftName.literal($0)))" }
                ?? "__view.isType(\(SwiftName.literal(group.type)))"
            let test = (conditionTests(group.conditions) + [check]).joined(separator: " && ")
            members.append(
                "public var as\(SwiftName.typeName(group.type)): \(typeName)? { \(test) ? \(typeName)(__view: __view) : nil }"
            )
        }

        let pad = String(repeating: "    ", count: indent)
        let inner = pad + "    "
        // Apollo's `data.hero.fragments.heroDetails`: the same masked pointers, by fragment name.
        // Left out when a field already answers to `fragments` (its view type would be `Fragments`).
        let taken = items.contains { item in
            switch item.selection {
            case .scalarField(let f): f.responseKey == "fragments"
            case .linkedField(let f): f.responseKey == "fragments"
            default: false
            }
        }
        if !spreads.isEmpty && !taken {
            members.append(
                "/// The spread fragments by name (Apollo's `fragments`): masked pointers, as `asFragment()` returns.")
            members.append("public var fragments: Fragments { Fragments(__view: __view) }")
            var block = inner + "public struct Fragments {\n"
            block += inner + "    public let __view: RecordView\n"
            for line in spreads { block += inner + "    " + line + "\n" }
            block += inner + "}\n"
            nested.append(block)
        }
        if !requiredChecks.isEmpty {
            members.append("/// Every `@required` field of this selection holds a value (else its parent reads nil).")
            members.append("public var __requiredHold: Bool { \(requiredChecks.joined(separator: " && ")) }")
        }
        var out = pad + "public struct \(name): SelectionView\(identifiable ? ", Identifiable" : "") {\n"
        out += inner + "public let __view: RecordView\n"
        out += inner + "public init(__view: RecordView) { self.__view = __view }\n"
        for m in members { out += inner + m + "\n" }
        for n in nested { out += "\n" + n }
        out += pad + "}\n"
        return out
    }

    /// Flattens conditions (fields become optional) and same-type inline fragments; groups the
    /// other inline fragments by type for `as<Type>`.
    private func collect(
        _ selections: [Selection], parentType: String, conditions: Conditions, items: inout [Item],
        inline: inout [(type: String, abstractKey: String?, items: [Selection], conditions: Conditions)]
    ) {
        for selection in selections {
            switch selection {
            case .condition(let c):
                collect(
                    c.selections, parentType: parentType,
                    conditions: conditions + [(c.variable, c.passingValue)], items: &items, inline: &inline)
            case .inlineFragment(let i) where i.type == parentType:
                collect(i.selections, parentType: parentType, conditions: conditions, items: &items, inline: &inline)
            case .inlineFragment(let i):
                if let k = inline.firstIndex(where: { $0.type == i.type }) {
                    inline[k].items += i.selections
                } else {
                    inline.append((i.type, i.abstractKey, i.selections, conditions))
                }
            case .typeDiscriminator:
                continue
            default:
                items.append(Item(selection: selection, conditions: conditions))
            }
        }
    }

    /// One property per response key: linked fields written twice merge their selections; a
    /// field written both with and without a condition is unconditional.
    private func merged(_ items: [Item]) -> [Item] {
        var out: [Item] = []
        var index: [String: Int] = [:]
        for item in items {
            let key: String
            switch item.selection {
            case .scalarField(let f): key = "f:" + f.responseKey
            case .linkedField(let f): key = "f:" + f.responseKey
            case .fragmentSpread(let s): key = "s:" + s.name
            case .aliasedInlineFragment(let a): key = "a:" + a.name
            default: key = "?\(out.count)"
            }
            guard let k = index[key] else {
                index[key] = out.count
                out.append(item)
                continue
            }
            if item.conditions.isEmpty { out[k].conditions = [] }
            if case .linkedField(var a) = out[k].selection, case .linkedField(let b) = item.selection {
                a.selections += b.selections
                out[k].selection = .linkedField(a)
            }
        }
        return out
    }

    /// relay's `@alias`: one member under the alias (first letter lowercased, as `fragments`'
    /// members): a spread's pointer (or an `@inline` fragment's data), or an inline fragment's
    /// own view. Optional unless it always matches: no condition, and the selection's type is
    /// the alias's type or one of its subtypes (relay's `non_nullable`).
    private mutating func aliasedMember(
        _ alias: AliasedInlineFragment, parentType: String, conditions: Conditions, nested: inout [String],
        indent: Int
    ) throws -> [String] {
        var tests = conditionTests(conditions)
        if let type = alias.type, !schema.isSubtype(parentType, of: type) {
            tests.append(
                alias.abstractKey.map { "__view.implements(\(SwiftName.literal($0)))" }
                    ?? "__view.isType(\(SwiftName.literal(type)))")
        }
        let name = SwiftName.identifier(Self.fragmentsMember(alias.name))
        func member(_ type: String, _ expr: String) -> String {
            let valueType = tests.isEmpty ? type : type + "?"
            let body = tests.isEmpty ? expr : "\(tests.joined(separator: " && ")) ? \(expr) : nil"
            if let to = alias.catchTo {
                return caughtProperty(name, .aliasedInlineFragment(alias), to, valueType: valueType, expr: body)
            }
            return "public var \(name): \(valueType) { \(body) }"
        }
        if alias.selections.count == 1, case .fragmentSpread(let spread) = alias.selections[0] {
            if spread.inlineData != nil {
                return [
                    "/// `...\(spread.name) @alias(as: \"\(alias.name)\")` (`@inline`): its data, read from this record.",
                    member("\(spread.name).Data", Self.inlineDataCall(spread)),
                ]
            }
            return [
                "/// `...\(spread.name) @alias(as: \"\(alias.name)\")`: masked; pass it to the view that declared `\(spread.name)`.",
                member("FragmentPointer<\(spread.name)>", Self.pointerCall(spread)),
            ]
        }
        let typeName = SwiftName.typeName(alias.name)
        let outer = withinCatch
        withinCatch = withinCatch || alias.catchTo != nil
        nested.append(
            try viewStruct(typeName, alias.selections, parentType: alias.type ?? parentType, indent: indent + 1))
        withinCatch = outer
        return [
            "/// `... \(alias.type.map { "on \($0) " } ?? "")@alias(as: \"\(alias.name)\")`: its selections, as a view of their own.",
            member(typeName, "\(typeName)(__view: __view)"),
        ]
    }

    /// A spread's masked pointer, with its `@arguments`.
    static func pointerCall(_ spread: FragmentSpread) -> String {
        spread.args.isEmpty
            ? "__view.pointer()" : "__view.pointer(arguments: \(SwiftArtifactLiteral.arguments(spread.args)))"
    }

    /// An `@inline` spread's data, with its `@arguments`.
    static func inlineDataCall(_ spread: FragmentSpread) -> String {
        spread.args.isEmpty
            ? "__view.inlineData(\(spread.name).self)"
            : "__view.inlineData(\(spread.name).self, arguments: \(SwiftArtifactLiteral.arguments(spread.args)))"
    }

    /// `fragments.<name>`: the fragment's name with its first letter lowercased (`toDoItem_todo`).
    static func fragmentsMember(_ fragment: String) -> String {
        fragment.prefix(1).lowercased() + fragment.dropFirst()
    }

    /// `check`, or (under conditions) only when they pass: a field not included requires nothing.
    private func guardedCheck(_ conditions: Conditions, _ check: String) -> String {
        conditions.isEmpty ? check : "(!(\(conditionTests(conditions).joined(separator: " && "))) || \(check))"
    }

    /// Whether a selection has a `@required` field of its own (not inside a nested object).
    static func hasRequired(_ selections: [Selection]) -> Bool {
        selections.contains { selection in
            switch selection {
            case .scalarField(let f): f.required != nil
            case .linkedField(let f): f.required != nil
            case .condition(let c): hasRequired(c.selections)
            default: false
            }
        }
    }

    private func conditionTests(_ conditions: Conditions) -> [String] {
        conditions.map { "__view.passes(\(SwiftName.literal($0.variable)), \($0.passingValue))" }
    }

    private func guarded(_ conditions: Conditions, _ expr: String) -> String {
        conditions.isEmpty ? expr : conditionTests(conditions).joined(separator: " && ") + " ? " + expr + " : nil"
    }

    private mutating func key(_ storageKey: String?, name: String, args: [Argument]) -> String {
        if let literal = storageKey ?? (args.isEmpty ? name : nil) {
            let slot = literalSlots[literal] ?? keyCount
            if literalSlots[literal] == nil {
                literalSlots[literal] = slot
                keyCount += 1
            }
            return "K(\(slot), \(SwiftName.literal(literal)))"
        }
        let description =
            "DynamicStorageKey(name: \(SwiftName.literal(name)), args: \(SwiftArtifactLiteral.arguments(args)))"
        let slot = dynamicSlots[description] ?? keyCount
        if dynamicSlots[description] == nil {
            dynamicSlots[description] = slot
            keyCount += 1
            fileDeclarations.append("private let \(prefix)_dynamicKey\(slot) = \(description)")
        }
        return "K(\(slot), \(prefix)_dynamicKey\(slot))"
    }

    private mutating func scalarProperty(_ f: ScalarField, parentType: String, conditions: Conditions) throws -> (
        [String], Bool
    ) {
        let name = SwiftName.identifier(f.responseKey)
        // The record's type and relay's client field `__id` (its data ID): never stored as fields.
        let recordAccessor: String? =
            switch f.name {
            case "__typename": "__view.typename"
            case "__id": "__view.dataID"
            default: nil
            }
        if let accessor = recordAccessor {
            let type = conditions.isEmpty ? "String" : "String?"
            return (["public var \(name): \(type) { \(guarded(conditions, accessor)) }"], false)
        }
        guard let type = schema.fieldType(f.name, on: parentType, semantic: strict || f.catchTo == .result) else {
            throw UnsupportedSelection(message: "no field \(f.name) on \(parentType)")
        }
        let k = key(f.storageKey, name: f.name, args: f.args)
        // `@required`: present whenever this view exists (its parent is nil otherwise).
        let optional = (!type.isNonNull || !conditions.isEmpty) && f.required == nil
        let (swiftType, call, fallback) = scalarAccess(type.nullable, key: k)
        let expr = optional ? guarded(conditions, call) : "\(call) ?? \(fallback)"
        let valueType = swiftType + (optional ? "?" : "")
        if let to = f.catchTo {
            return ([caughtProperty(name, .scalarField(f), to, valueType: valueType, expr: expr)], false)
        }
        var lines = ["public var \(name): \(valueType) { \(expr) }"]
        if swiftType == "String" {
            // The hot-loop spelling: the arena's bytes, no String made.
            let utf8Call = "__view.utf8(\(k))"
            let utf8Expr = optional ? guarded(conditions, utf8Call) : "\(utf8Call) ?? .empty"
            lines.append("public var \(f.responseKey)UTF8: BorrowedUTF8\(optional ? "?" : "") { \(utf8Expr) }")
        }
        return (lines, f.responseKey == "id" && swiftType == "String" && !optional)
    }

    /// relay's `@catch` on a field or aliased inline fragment: `Caught<Value>` (`to: RESULT`) or
    /// an optional that is `nil` when anything was met (`to: NULL`). The selection is declared at
    /// file scope for the Reader to read again.
    private mutating func caughtProperty(
        _ name: String, _ selection: Selection, _ to: CatchTo, valueType: String, expr: String
    ) -> String {
        let literal = "\(prefix)_caught\(caughtCount)"
        caughtCount += 1
        fileDeclarations.append("private let \(literal): Selection = \(SwiftArtifactLiteral.selection(selection))")
        let owner = SwiftName.literal(prefix)
        switch to {
        case .result:
            return "public var \(name): Caught<\(valueType)> { __view.caught(\(literal), owner: \(owner)) { \(expr) } }"
        case .null:
            let type = valueType.hasSuffix("?") ? valueType : valueType + "?"
            return "public var \(name): \(type) { __view.caughtOrNil(\(literal), owner: \(owner)) { \(expr) } }"
        }
    }

    /// Swift type (without the outer optional), the accessor call and the missing-data fallback.
    private mutating func scalarAccess(_ type: TypeRef, key k: String) -> (String, String, String) {
        switch type {
        case .list:
            let element = listElement(type)
            return (element, "__view.scalarList(\(k), of: \(String(element.dropFirst().dropLast())).self)", "[]")
        case .named(let n), .nonNull(.named(let n)):
            switch schema.leafKind(n) {
            case .string: return ("String", "__view.string(\(k))", "\"\"")
            case .int: return ("Int", "__view.int(\(k))", "0")
            case .double: return ("Double", "__view.double(\(k))", "0")
            case .bool: return ("Bool", "__view.bool(\(k))", "false")
            case .enumeration(let e):
                enumsUsed.insert(e)
                return (e, "__view.enumValue(\(k), as: \(e).self)", ".__unknown(\"\")")
            case .custom: return ("JSONValue", "__view.json(\(k))", ".null")
            case .mapped(let swift):
                return (swift, "__view.json(\(k)).flatMap(\(swift)._fromJSON)", "\(swift).missingValue")
            }
        case .nonNull(let inner):
            return scalarAccess(inner, key: k)
        }
    }

    /// The Swift spelling of a (nullable-stripped) list type's value: `[String?]`, `[[Double?]?]`.
    private mutating func listElement(_ type: TypeRef) -> String {
        switch type {
        case .nonNull(let inner): return listElement(inner)
        case .list(let item):
            let inner = item.isNonNull ? itemType(item.nullable) : itemType(item) + "?"
            return "[\(inner)]"
        case .named: return itemType(type)
        }
    }

    private mutating func itemType(_ type: TypeRef) -> String {
        switch type {
        case .list: return listElement(type)
        case .nonNull(let inner): return itemType(inner)
        case .named: return scalarAccess(type, key: "").0
        }
    }

    /// The property, and what `@required` asks of it for the parent to exist (a `@required`
    /// field present with its own required fields; `nil` when nothing).
    private mutating func linkedProperty(_ f: LinkedField, type: TypeRef, typeName: String, conditions: Conditions)
        throws -> (String, String?)
    {
        let name = SwiftName.identifier(f.responseKey)
        let (valueType, expr, check) = try linkedAccess(f, type: type, typeName: typeName, conditions: conditions)
        if let to = f.catchTo {
            return (caughtProperty(name, .linkedField(f), to, valueType: valueType, expr: expr), nil)
        }
        return ("public var \(name): \(valueType) { \(expr) }", check)
    }

    /// The property's type and body, and its `@required` check.
    private mutating func linkedAccess(_ f: LinkedField, type: TypeRef, typeName: String, conditions: Conditions)
        throws -> (String, String, String?)
    {
        let k = key(f.storageKey, name: f.name, args: f.args)
        let childRequired = Self.hasRequired(f.selections)
        let optional = !type.isNonNull || !conditions.isEmpty
        switch type.nullable {
        case .list(let item):
            if case .list = item.nullable {
                throw UnsupportedSelection(
                    message: "lists of lists of objects (\(f.name)) are not supported by the Swift generator yet")
            }
            let element = item.isNonNull ? typeName : typeName + "?"
            if optional {
                return ("ViewList<\(element)>?", guarded(conditions, "__view.list(\(k), of: \(element).self)"), nil)
            }
            return ("ViewList<\(element)>", "__view.listOrEmpty(\(k), of: \(element).self)", nil)
        default:
            if childRequired || f.required != nil {
                // A record whose `@required` field is null reads nil (relay nulls it): so does the
                // property; a `@required` one is not optional, its parent being nil instead.
                let linked = "__view.linked(\(k), as: \(typeName).self)"
                let read = childRequired ? "\(linked).flatMap { $0.__requiredHold ? $0 : nil }" : linked
                if f.required != nil {
                    let check = guardedCheck(conditions, "(\(read) != nil)")
                    return (typeName, "\(read) ?? \(typeName)(__view: __view.emptyView)", check)
                }
                return (typeName + "?", guarded(conditions, read), nil)
            }
            if optional {
                return (typeName + "?", guarded(conditions, "__view.linked(\(k), as: \(typeName).self)"), nil)
            }
            return (typeName, "__view.linkedOrEmpty(\(k), as: \(typeName).self)", nil)
        }
    }
}
