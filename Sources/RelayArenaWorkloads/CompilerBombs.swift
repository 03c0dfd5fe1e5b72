// Hostile GraphQL documents against the to-do schema: the compiler's limit tests, the seeds of its
// fuzz test and the compile benchmark generate them here, so none is committed. Not API.

public enum CompilerBombs {
    /// `query Q {` / `  user(id: "me") {` / `friends { ` × `depth` on line 3: `depth + 2`
    /// selection sets inside one another.
    public static func deepSelections(_ depth: Int) -> String {
        "query Q {\n  user(id: \"me\") {\n" + String(repeating: "friends { ", count: depth) + "name"
            + String(repeating: " }", count: depth) + "\n  }\n}\n"
    }

    /// `query Q { user(id: [[…[1]…]]) { name } }`: a list literal `depth` deep (of the wrong type,
    /// so validation would quote it), the first `[` at column 20.
    public static func deepList(_ depth: Int) -> String {
        "query Q { user(id: " + String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
            + ") { name } }\n"
    }

    /// `query Q { user(id: {a: {a: … 1 …}}) { name } }`: an object literal `depth` deep (of the wrong
    /// type), the first `{` at column 20.
    public static func deepInputObject(_ depth: Int) -> String {
        "query Q { user(id: " + String(repeating: "{a: ", count: depth) + "1" + String(repeating: "}", count: depth)
            + ") { name } }\n"
    }

    /// Fragment `F<i>` selects `f<i>: name` and spreads `F<i+1>` twice; `Q` spreads `F0`. Inlined
    /// path by path that is 2^`levels` copies; merged, `levels + 1` aliased fields (and `id`).
    public static func doubleSpreads(_ levels: Int) -> String {
        var text = "query Q { user(id: \"me\") { ...F0 } }\n"
        for level in 0..<levels {
            text += "fragment F\(level) on User { f\(level): name ...F\(level + 1) ...F\(level + 1) }\n"
        }
        return text + "fragment F\(levels) on User { f\(levels): name }\n"
    }

    /// As `doubleSpreads`, but the two spreads sit under different fields (`a: bestFriend`,
    /// `b: bestFriend`), so the copies cannot merge: 2^`levels` of them. `F<i>` is on line `i + 2`.
    public static func doublePaths(_ levels: Int) -> String {
        var text = "query Q { user(id: \"me\") { ...F0 } }\n"
        for level in 0..<levels {
            text +=
                "fragment F\(level) on User { name a: bestFriend { ...F\(level + 1) } b: bestFriend { ...F\(level + 1) } }\n"
        }
        return text + "fragment F\(levels) on User { name }\n"
    }

    /// `F<i>` spreads `F<i+1>` once, `length` fragments in all; `F<i>` is on line `i + 2`, its
    /// spread at column 22 + the digits of `i`.
    public static func spreadChain(_ length: Int) -> String {
        var text = "query Q { user(id: \"me\") { ...F0 } }\n"
        for level in 0..<(length - 1) {
            text += "fragment F\(level) on User { ...F\(level + 1) }\n"
        }
        return text + "fragment F\(length - 1) on User { name }\n"
    }

    /// `count` fragments, each nesting `depth` `bestFriend` selections around its spread of the
    /// next: shallow each, but `count × depth` deep once inlined. `F<i>` is on line `i + 2`.
    public static func deepChain(_ count: Int, depth: Int) -> String {
        var text = "query Q { user(id: \"me\") { ...F0 } }\n"
        for level in 0..<count {
            let inner = level + 1 < count ? "...F\(level + 1)" : "name"
            text +=
                "fragment F\(level) on User { " + String(repeating: "bestFriend { ", count: depth) + inner
                + String(repeating: " }", count: depth) + " }\n"
        }
        return text
    }

    /// `query Q { user(id: "me") {` then `f<i>: name` on lines 2 … `count + 1`.
    public static func aliasedFields(_ count: Int) -> String {
        var text = "query Q { user(id: \"me\") {\n"
        for index in 0..<count { text += "  f\(index): name\n" }
        return text + "} }\n"
    }

    /// `query Q<i> { viewer { locale } }`, one a line.
    public static func operations(_ count: Int) -> String {
        var text = ""
        for index in 0..<count { text += "query Q\(index) { viewer { locale } }\n" }
        return text
    }
}
