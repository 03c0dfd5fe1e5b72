// Refuses fragment spread chains past `DocumentLimits.spreadChain` and selections nested past
// `DocumentLimits.inlinedNesting` once fragments are inlined, before GraphQLSwift validates the
// spreads (its cycle check recurses once per spread in a chain). No recursion along chains here.
import GraphQL

enum FragmentSpreadLimits {
    private struct Spread {
        var target: String
        /// Selection sets around the spread in its definition (1 at the definition's top level).
        var depth: Int
        var node: GraphQL.FragmentSpread
        var file: String
    }

    /// One definition's deepest selection set and its spreads, in document order.
    private struct Shape {
        var nesting = 0
        var spreads: [Spread] = []
    }

    /// What a definition reaches through its spreads: the longest chain of spreads below it and
    /// the deepest selection once they are inlined.
    private struct Reach {
        var chain = 0
        var nesting = 0
    }

    static func check(_ definitions: [SourcedDefinition]) throws {
        var shapes: [String: Shape] = [:]
        for sourced in definitions {
            guard let fragment = sourced.definition as? FragmentDefinition, shapes[fragment.name.value] == nil else {
                continue
            }
            shapes[fragment.name.value] = shape(fragment.selectionSet, file: sourced.file)
        }
        var reach: [String: Reach] = [:]
        for name in shapes.keys.sorted() where reach[name] == nil {
            visit(name, shapes: shapes, reach: &reach)
        }
        for sourced in definitions {
            let own: Shape
            if let fragment = sourced.definition as? FragmentDefinition {
                own = shapes[fragment.name.value] ?? Shape()
            } else if let operation = sourced.definition as? OperationDefinition {
                own = shape(operation.selectionSet, file: sourced.file)
            } else {
                continue
            }
            try checkLimits(from: own, shapes: shapes, reach: reach)
        }
    }

    /// Depth-first over the spread graph with an explicit stack; a spread back to a fragment still
    /// being visited (a cycle, which validation reports) is not followed.
    private static func visit(_ root: String, shapes: [String: Shape], reach: inout [String: Reach]) {
        var onPath: Set<String> = [root]
        var stack: [(name: String, next: Int)] = [(root, 0)]
        while let (name, next) = stack.last {
            let spreads = shapes[name]?.spreads ?? []
            if next < spreads.count {
                stack[stack.count - 1].next += 1
                let target = spreads[next].target
                if shapes[target] != nil, reach[target] == nil, onPath.insert(target).inserted {
                    stack.append((target, 0))
                }
                continue
            }
            reach[name] = combined(shapes[name] ?? Shape(), reach: reach)
            onPath.remove(name)
            stack.removeLast()
        }
    }

    private static func combined(_ shape: Shape, reach: [String: Reach]) -> Reach {
        var result = Reach(chain: 0, nesting: shape.nesting)
        for spread in shape.spreads {
            guard let below = reach[spread.target] else { continue }
            result.chain = max(result.chain, below.chain + 1)
            result.nesting = max(result.nesting, spread.depth + below.nesting)
        }
        return result
    }

    /// Follows the longest chain (or the deepest inlined path) from a definition to the spread
    /// where it passes the limit, so the error points at the spread to remove. Each step goes one
    /// spread further (and at least one level deeper), so the walk ends within the limit.
    private static func checkLimits(from own: Shape, shapes: [String: Shape], reach: [String: Reach]) throws {
        let total = combined(own, reach: reach)
        if total.chain > DocumentLimits.spreadChain {
            var shape = own
            var length = 0
            var last: Spread?
            while let spread = deepest(shape, reach: reach, by: { reach, _ in reach.chain }) {
                length += 1
                last = spread
                if length > DocumentLimits.spreadChain { break }
                shape = shapes[spread.target] ?? Shape()
            }
            if let last {
                throw CompilerError(
                    node: last.node, fallbackFile: last.file,
                    message:
                        "Fragment spreads nested too deeply: this spread of \(last.target) is number \(length) in a chain (the limit is \(DocumentLimits.spreadChain))."
                )
            }
        }
        if total.nesting > DocumentLimits.inlinedNesting {
            var shape = own
            var depth = 0
            var last: Spread?
            while let spread = deepest(shape, reach: reach, by: { $0.nesting + $1 }) {
                depth += spread.depth
                last = spread
                shape = shapes[spread.target] ?? Shape()
                if depth + shape.nesting > DocumentLimits.inlinedNesting { break }
            }
            if let last {
                throw CompilerError(
                    node: last.node, fallbackFile: last.file,
                    message:
                        "Selections nested too deeply once fragments are inlined: more than \(DocumentLimits.inlinedNesting) levels through this spread of \(last.target)."
                )
            }
        }
    }

    /// The first spread of a definition reaching furthest by `measure` (of its target's reach and
    /// its own depth), among spreads of known fragments.
    private static func deepest(_ shape: Shape, reach: [String: Reach], by measure: (Reach, Int) -> Int) -> Spread? {
        var best: (spread: Spread, value: Int)?
        for spread in shape.spreads {
            guard let below = reach[spread.target] else { continue }
            let value = measure(below, spread.depth)
            if best == nil || value > best!.value { best = (spread, value) }
        }
        return best?.spread
    }

    private static func shape(_ selectionSet: SelectionSet, file: String) -> Shape {
        var result = Shape()
        // Selection sets nest at most `DocumentLimits.nesting` deep (the pre-scan saw to it).
        func walk(_ set: SelectionSet, depth: Int) {
            result.nesting = max(result.nesting, depth)
            for selection in set.selections {
                switch selection {
                case let field as Field:
                    if let inner = field.selectionSet { walk(inner, depth: depth + 1) }
                case let inline as GraphQL.InlineFragment:
                    walk(inline.selectionSet, depth: depth + 1)
                case let spread as GraphQL.FragmentSpread:
                    result.spreads.append(Spread(target: spread.name.value, depth: depth, node: spread, file: file))
                default:
                    continue
                }
            }
        }
        walk(selectionSet, depth: 1)
        return result
    }
}
