// relay's `@inline` fragments, read outside a component (relay's `readInlineData`): the query's
// view gets `readInlineData(F.self)` returning F's own view over the same record, read with F's
// variables — one without arguments (under a condition, so aliased, as relay v19 requires, and
// optional) and one with `@arguments`.
import RelayArena

private let inlineDataDocuments = graphql(
    """
    query InlineDataUserQuery($size: Int, $withSummary: Boolean = true) {
      user(id: "me") {
        id
        ...UserInlineSummary_user @alias(as: "summary") @include(if: $withSummary)
        ...UserInlineAvatar_user @arguments(size: $size)
      }
    }

    fragment UserInlineSummary_user on User @inline {
      name
      email
      bestFriend {
        name
      }
    }

    fragment UserInlineAvatar_user on User @inline
      @argumentDefinitions(size: {type: "Int", defaultValue: 32}) {
      avatar(size: $size) {
        url
      }
    }
    """)
