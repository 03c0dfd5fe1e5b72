// An aliased `__typename` under concrete and abstract refinements: typed views follow relay's
// generated types, so `kind` exists only on the members that implement `Character`.
import RelayArena

private let typenameAliasesQuery = graphql(
    """
    query TypenameAliasesQuery {
      search(text: "a") {
        __typename
        ... on Character {
          kind: __typename
          appearsIn
        }
        ... on Human {
          humanKind: __typename
        }
      }
    }
    """)
