// `graphql("""…""")`: how Relay.swift users write documents beside their views. The runtime never
// parses it; `relay-arena generate --swift-sources` finds these literals and compiles them.

/// Marks a GraphQL document for the generator and returns it unchanged. Write the literal as a
/// multi-line string right after `graphql(` (on the same line or the next, as swift-format puts
/// it) so the generator can find it; errors in it are reported at the Swift file's line and column.
@discardableResult
public func graphql(_ document: String) -> String { document }
