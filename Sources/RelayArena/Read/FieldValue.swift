// A field's value as the arena stores it, borrowed: text values and link lists read the arena
// while their snapshot lives (they trap after).

/// A field value as stored.
public enum FieldValue {
    case null
    case bool(Bool)
    case int(Int64)
    /// A number that is not an integer of up to 17 digits, as received.
    case number(BorrowedUTF8)
    case string(BorrowedUTF8)
    /// A list of scalars or a custom scalar, as minified JSON text.
    case json(BorrowedUTF8)
    case link(StoreSymbol)
    case links(LinkList)
}
