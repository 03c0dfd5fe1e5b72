// The fragment the typed-read benchmarks use; its Swift view is generated next to it with
// `relay-arena generate --swift-sources Benchmarks/Benchmarks/Reads --output Benchmarks/Benchmarks/Reads/Generated`.
import RelayArena

private let itemFragment = graphql(
    """
    fragment BenchItem_todo on Todo {
      text
      complete
    }
    """)
