// Comparator: a Relay-style normalizer the way Relay.swift stores records — Foundation's
// JSONSerialization, then one `[String: Any]` dictionary per record, merged field by field.
import Foundation
import RelayArena

/// Records as dictionaries keyed by data ID (what the arena replaces).
public final class DictionaryRecordSource {
    public var records: [String: [String: Any]] = ["client:root": ["__id": "client:root", "__typename": "__Root"]]
    public init() {}

    /// Parses `bytes` with JSONSerialization, normalizes `data` against `operation`, merges it
    /// into the records and returns how many records changed.
    @discardableResult
    public func commit(response bytes: Data, operation: OperationArtifact, variables: Variables) throws -> Int {
        guard let top = try JSONSerialization.jsonObject(with: bytes) as? [String: Any],
            let data = top["data"] as? [String: Any]
        else { throw CocoaError(.coderReadCorrupt) }
        var scratch: [String: [String: Any]] = ["client:root": ["__id": "client:root", "__typename": "__Root"]]
        let vars = operation.effectiveVariables(variables)
        normalize(data, selections: operation.normalization, dataID: "client:root", into: &scratch, vars)
        var updated = 0
        for (id, next) in scratch {
            guard var prev = records[id] else {
                records[id] = next
                updated += 1
                continue
            }
            var changed = false
            for (k, v) in next where !(prev[k].map { isEqual($0, v) } ?? false) {
                prev[k] = v
                changed = true
            }
            if changed {
                records[id] = prev
                updated += 1
            }
        }
        return updated
    }

    /// The records as relay toJSON JSON (for comparing with the arena).
    public func relayJSON() throws -> Data {
        try JSONSerialization.data(withJSONObject: records, options: [.sortedKeys])
    }

    private func normalize(
        _ data: [String: Any], selections: [Selection], dataID: String,
        into scratch: inout [String: [String: Any]], _ vars: Variables
    ) {
        for selection in selections {
            switch selection {
            case .scalarField(let f):
                if let v = data[f.responseKey] { scratch[dataID, default: [:]][f.storageKey(vars)] = v }
            case .linkedField(let f):
                let key = f.storageKey(vars)
                guard let v = data[f.responseKey] else { continue }
                if v is NSNull {
                    scratch[dataID, default: [:]][key] = NSNull()
                } else if f.plural, let items = v as? [Any] {
                    var refs: [Any] = []
                    for (i, item) in items.enumerated() {
                        guard let object = item as? [String: Any] else {
                            refs.append(NSNull())
                            continue
                        }
                        let id = (object["id"] as? String) ?? clientID(dataID, key, i)
                        refs.append(id)
                        link(object, f, id, &scratch, vars)
                    }
                    scratch[dataID, default: [:]][key] = ["__refs": refs]
                } else if let object = v as? [String: Any] {
                    let id = (object["id"] as? String) ?? clientID(dataID, key, nil)
                    scratch[dataID, default: [:]][key] = ["__ref": id]
                    link(object, f, id, &scratch, vars)
                }
            case .condition(let c):
                if (vars[c.variable] ?? .null).isTruthy == c.passingValue {
                    normalize(data, selections: c.selections, dataID: dataID, into: &scratch, vars)
                }
            case .inlineFragment(let i):
                if (scratch[dataID]?["__typename"] as? String) == i.type
                    || i.abstractKey.map({ data[$0] != nil }) == true
                {
                    normalize(data, selections: i.selections, dataID: dataID, into: &scratch, vars)
                }
            case .typeDiscriminator, .fragmentSpread, .aliasedInlineFragment:
                break
            }
        }
    }

    private func link(
        _ object: [String: Any], _ f: LinkedField, _ id: String, _ scratch: inout [String: [String: Any]],
        _ vars: Variables
    ) {
        if scratch[id] == nil {
            scratch[id] = ["__id": id, "__typename": f.concreteType ?? (object["__typename"] as? String ?? "")]
        }
        normalize(object, selections: f.selections, dataID: id, into: &scratch, vars)
    }

    private func clientID(_ parent: String, _ key: String, _ index: Int?) -> String {
        let base = (parent.hasPrefix("client:") ? "" : "client:") + parent + ":" + key
        return index.map { base + ":\($0)" } ?? base
    }

    private func isEqual(_ a: Any, _ b: Any) -> Bool {
        if let x = a as? NSObject, let y = b as? NSObject { return x.isEqual(y) }
        return false
    }
}
