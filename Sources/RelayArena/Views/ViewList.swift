// Plural linked fields as random-access collections over the stored link list: each element's
// view is made when subscripted, so iterating builds no array.

/// What a `ViewList` holds: a generated view (null items read as an empty view) or an optional
/// view (null items read as `nil`), following the list item's nullability in the schema.
public protocol ViewListElement {
    static func _listElement(_ record: RecordRef?, parent: RecordView) -> Self
}

extension Optional: ViewListElement where Wrapped: SelectionView {
    public static func _listElement(_ record: RecordRef?, parent: RecordView) -> Wrapped? {
        // relay nulls a list item whose `@required` field is null.
        record.map { Wrapped(__view: RecordView(parent, record: $0)) }.flatMap { $0.__requiredHold ? $0 : nil }
    }
}

public struct ViewList<Element: ViewListElement>: RandomAccessCollection {
    let links: LinkList
    let parent: RecordView

    public var startIndex: Int { 0 }
    public var endIndex: Int { links.count }

    public subscript(i: Int) -> Element {
        // Unknown and deleted records read like null items (relay reads them as undefined/null).
        guard let id = links[i], case .record(let r) = parent.snapshot.record(id) else {
            return Element._listElement(nil, parent: parent)
        }
        return Element._listElement(r, parent: parent)
    }
}
