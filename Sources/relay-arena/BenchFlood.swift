// `relay-arena bench`'s hash-flooding figures: ingest of IDs (and one object's unselected keys, and
// a store file's records) crafted to collide, over the same work with random texts of the same
// length, paired in this run. The old fixed hash's collisions should cost what random texts do
// (the key is random); a known key's collisions should too, once the probe bound rekeys.
import Foundation
@_spi(HashFlooding) import RelayArena
import RelayArenaWorkloads

extension Bench {
    struct FloodFigures {
        var randomIDsSeconds: Double
        var idsOld: Double, idsLeaked: Double
        var keysOld: Double, keysLeaked: Double
        var storeOld: Double, storeLeaked: Double
    }

    static let floodRounds = 7
    /// 200k IDs, 100k keys and 100k records at the default 100k todos; fewer for a smaller list
    /// (the suite's small runs prove the figures run, they are no measurement).
    var floodIDs: Int { min(200_000, 2 * todos) }
    var floodKeys: Int { min(100_000, todos) }
    var floodRecords: Int { min(100_000, todos) }

    /// The median over rounds of `flooded ÷ random`, the two alternating which goes first.
    func floodRatio(_ flooded: () throws -> Void, _ random: () throws -> Void) rethrows -> (
        ratio: Double, random: Double
    ) {
        var ratios: [Double] = []
        var fastest = Double.infinity
        for round in 0..<Self.floodRounds {
            let (f, r) = try alternately(round % 2 == 0, { try timed(flooded) }, { try timed(random) })
            ratios.append(f / r)
            fastest = min(fastest, r)
        }
        return (median(ratios), fastest)
    }

    func floodFigures() throws -> FloodFigures {
        let plan = try TodoListSetup.plan(todos: floodIDs)
        let keyPlan = try TodoListSetup.plan(todos: 1)
        let limits = NormalizationLimits(maxBytes: 1 << 30)
        func ingest(_ bytes: [UInt8], _ p: NormalizationPlan) throws {
            _ = try RecordStore().commit(response: bytes, plan: p, limits: limits)
        }
        func figures(_ kind: HashFloodKind) throws -> (ids: (Double, Double), keys: Double, store: Double) {
            let random = HashFloodWorkload.texts(floodIDs, .random)
            let flooded = HashFloodWorkload.texts(floodIDs, kind)
            let idsR = HashFloodWorkload.response(ids: random)
            let idsF = HashFloodWorkload.response(ids: flooded)
            let ids = try floodRatio({ try ingest(idsF, plan) }, { try ingest(idsR, plan) })
            let keysR = HashFloodWorkload.response(unselectedKeys: Array(random.prefix(floodKeys)))
            let keysF = HashFloodWorkload.response(unselectedKeys: Array(flooded.prefix(floodKeys)))
            let keys = try floodRatio({ try ingest(keysF, keyPlan) }, { try ingest(keysR, keyPlan) })
            let storeR = HashFloodWorkload.storeFile(ids: Array(random.prefix(floodRecords)))
            let storeF = HashFloodWorkload.storeFile(ids: Array(flooded.prefix(floodRecords)))
            let store = try floodRatio(
                { _ = try RecordStore(relayJSON: storeF) }, { _ = try RecordStore(relayJSON: storeR) })
            return ((ids.ratio, ids.random), keys.ratio, store.ratio)
        }
        progress("hash flooding: \(floodIDs) IDs crafted for the old fixed hash vs random ones")
        let old = try figures(.oldFixedHash)
        progress("hash flooding: the same under a known key (the probe bound rekeys)")
        let leaked = HashFloodWorkload.leakedKey
        RecordStore.setHashKey(leaked.0, leaked.1)
        defer { RecordStore.setHashKey(UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max)) }
        let known = try figures(.knownKey(leaked.0, leaked.1))
        return FloodFigures(
            randomIDsSeconds: old.ids.1, idsOld: old.ids.0, idsLeaked: known.ids.0, keysOld: old.keys,
            keysLeaked: known.keys, storeOld: old.store, storeLeaked: known.store)
    }
}
