// Reading JSON text (variables given on the command line or by a caller) into JSONValue.
import Foundation

extension JSONValue: Decodable {
    public init(from decoder: Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [JSONMember] = []
            for key in keyed.allKeys {
                members.append(JSONMember(key.stringValue, try keyed.decode(JSONValue.self, forKey: key)))
            }
            self = .object(members)
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !list.isAtEnd { items.append(try list.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let b = try? single.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? single.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? single.decode(Double.self) {
            self = .double(d)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Parses JSON text, object members in the order written.
    public init(parsing text: String) throws {
        do {
            self = try JSONDocument.parse(Array(text.utf8), what: "the text").jsonValue
        } catch let error as RelayArenaError {
            throw RelayArenaError(
                code: .invalidVariables, message: "invalid JSON: \(error.message) at byte \(error.offset ?? 0)")
        }
    }

    /// The members of an object value, `nil` for anything else.
    package var objectMembers: [JSONMember]? {
        if case .object(let m) = self { return m }
        return nil
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
