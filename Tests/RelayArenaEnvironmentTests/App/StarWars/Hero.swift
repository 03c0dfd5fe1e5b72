// Inline fragments on the Star Wars schema: concrete type conditions (`asDroid`, `asHuman`) and an
// abstract one answered by the type records (`asCharacter` on a union).
import RelayArena

private let heroQuery = graphql(
    """
    query HeroQuery($episode: Episode) {
      hero(episode: $episode) {
        __typename
        name
        appearsIn
        ... on Droid {
          primaryFunction
        }
        ... on Human {
          homePlanet
          height
        }
      }
    }
    """)

private let searchQuery = graphql(
    """
    query SearchQuery {
      search(text: "a") {
        __typename
        ... on Character {
          name
        }
        ... on Starship {
          length
        }
      }
    }
    """)
