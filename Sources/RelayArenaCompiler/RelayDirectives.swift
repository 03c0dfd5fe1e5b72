// Relay's document directives (@arguments, @argumentDefinitions, @relay, ...) and AST value/type
// conversion: reading them into the IR, and removing them so GraphQL validation never sees them.
import GraphQL

/// Directives relay-compiler understands that are not in the schema. They are stripped before
/// validation (their open argument sets cannot be declared in SDL); `@include`/`@skip` stay.
let relayDirectiveNames: Set<String> = [
    "arguments", "argumentDefinitions", "relay", "connection", "refetchable", "deleteRecord", "deleteEdge",
    "appendEdge",
    "prependEdge", "appendNode", "prependNode",
    // On operations, for relay's type generation, test data and preloading: nothing to send or run.
    "raw_response_type", "relay_test_operation", "preloadable",
    // Field errors: read by the reader, never sent.
    "required", "catch", "throwOnFieldError",
]

enum ASTConversion {
    static func value(_ value: any GraphQL.Value) -> IRValue {
        switch value {
        case let variable as GraphQL.Variable: return .variable(variable.name.value)
        case let int as IntValue: return .int(int.value)
        case let float as FloatValue: return .float(float.value)
        case let string as StringValue: return .string(string.value)
        case let bool as BooleanValue: return .bool(bool.value)
        case let enumValue as EnumValue: return .enumValue(enumValue.value)
        case let list as ListValue: return .list(list.values.map { Self.value($0) })
        case let object as ObjectValue:
            return .object(object.fields.map { IRObjectMember(key: $0.name.value, value: Self.value($0.value)) })
        default: return .null
        }
    }

    /// The type as written: `Int!`, `[ID!]`.
    static func typeString(_ type: any GraphQL.`Type`) -> String {
        switch type {
        case let named as NamedType: return named.name.value
        case let list as ListType: return "[\(typeString(list.type))]"
        case let nonNull as NonNullType: return "\(typeString(nonNull.type))!"
        default: return ""
        }
    }

    /// Arguments sorted by name (relay sorts them so equal fields get equal storage keys).
    static func arguments(_ arguments: [GraphQL.Argument]) -> [IRArgument] {
        arguments.map { IRArgument(name: $0.name.value, value: value($0.value)) }
            .sorted { codeUnitLess($0.name, $1.name) }
    }
}

enum RelayDirectives {
    /// `...F @arguments(count: 3)` → the spread's arguments, sorted by name.
    static func spreadArguments(_ spread: GraphQL.FragmentSpread) -> [IRArgument] {
        guard let directive = spread.directives.first(where: { $0.name.value == "arguments" }) else { return [] }
        return ASTConversion.arguments(directive.arguments)
    }

    /// `@argumentDefinitions(count: {type: "Int", defaultValue: 3})`. Entries that are not of that
    /// shape are skipped (relay would reject them; validation does not know the directive).
    static func argumentDefinitions(_ fragment: FragmentDefinition) -> [IRArgumentDefinition] {
        guard let directive = fragment.directives.first(where: { $0.name.value == "argumentDefinitions" }) else {
            return []
        }
        return directive.arguments.compactMap { argument in
            guard case .object(let members) = ASTConversion.value(argument.value) else { return nil }
            var type = ""
            var defaultValue: IRValue?
            var provider: String?
            for member in members {
                if member.key == "type", case .string(let written) = member.value { type = written }
                if member.key == "defaultValue" { defaultValue = member.value }
                if member.key == "provider", case .string(let module) = member.value { provider = module }
            }
            return IRArgumentDefinition(
                name: argument.name.value, type: type, defaultValue: defaultValue, provider: provider)
        }
    }

    /// `@relay(plural: true)`.
    static func isPlural(_ fragment: FragmentDefinition) -> Bool {
        fragment.directives.contains { directive in
            directive.name.value == "relay"
                && directive.arguments.contains {
                    $0.name.value == "plural" && ($0.value as? BooleanValue)?.value == true
                }
        }
    }

    /// Variables used inside relay directives of the given definitions (an operation variable only
    /// passed on through `@arguments` is used, although the stripped document no longer shows it).
    static func variablesUsed(in definitions: [any Definition]) -> Set<String> {
        var names = Set<String>()
        func collect(_ value: IRValue) {
            switch value {
            case .variable(let name): names.insert(name)
            case .list(let items):
                for item in items { collect(item) }
            case .object(let members):
                for member in members { collect(member.value) }
            default: break
            }
        }
        func visit(_ directives: [Directive]) {
            for directive in directives where relayDirectiveNames.contains(directive.name.value) {
                for argument in directive.arguments { collect(ASTConversion.value(argument.value)) }
            }
        }
        func visit(_ selectionSet: SelectionSet?) {
            for selection in selectionSet?.selections ?? [] {
                switch selection {
                case let field as Field:
                    visit(field.directives)
                    visit(field.selectionSet)
                case let inline as GraphQL.InlineFragment:
                    visit(inline.directives)
                    visit(inline.selectionSet)
                case let spread as GraphQL.FragmentSpread: visit(spread.directives)
                default: break
                }
            }
        }
        for definition in definitions {
            if let operation = definition as? OperationDefinition {
                visit(operation.directives)
                visit(operation.selectionSet)
            } else if let fragment = definition as? FragmentDefinition {
                visit(fragment.directives)
                visit(fragment.selectionSet)
            }
        }
        return names
    }
}

extension RelayDirectives {
    /// `@inline` takes no arguments (relay-compiler: `directive @inline on FRAGMENT_DEFINITION`).
    /// GraphQLSwift's executable rules do not check directive argument names, so this reports
    /// graphql-js's KnownArgumentNamesOnDirectivesRule error for it. Other placements of `@inline`
    /// are already KnownDirectives errors.
    static func checkInline(_ definitions: [SourcedDefinition]) throws {
        for sourced in definitions {
            guard let fragment = sourced.definition as? FragmentDefinition else { continue }
            for directive in fragment.directives where directive.name.value == "inline" {
                if let argument = directive.arguments.first {
                    throw CompilerError(
                        node: argument, fallbackFile: sourced.file,
                        message: "Unknown argument \"\(argument.name.value)\" on directive \"@inline\".")
                }
            }
        }
    }
}
