// Snapshots: a store written to one versioned binary file and opened again by reading it (the
// format and its checks are the C core's, ra_snapshot_write.c and ra_snapshot_open.c).

extension RecordStore {
    /// Opens a snapshot file written by `writeSnapshot(to:)`.
    ///
    /// The file is read into memory the store owns (never mapped: another process that truncates
    /// or rewrites it meanwhile changes nothing the store reads) and checked before anything reads
    /// it: its header (magic, format version,
    /// byte order, sizes against the file's length), its checksum over every byte, and every bound
    /// a reader relies on, so a truncated, corrupt, foreign or newer-version file throws
    /// (`invalidSnapshot`, with the check that failed and the byte offset it applies to) and never
    /// crashes. The store then reads the arrays where they were read to; its first write (a
    /// publish) copies them into blocks of their own.
    public convenience init(snapshotAt path: String) throws {
        self.init(source: try SourceHandle.openSnapshot(path))
    }

    /// Writes the store to a snapshot file, atomically: to a temporary file in the same directory,
    /// flushed (`fsync`), renamed over `path`, the directory flushed. A failure (a directory that
    /// does not exist or is not writable, a full disk) throws `io` and leaves the previous file
    /// whole and no temporary file behind. A crash at any point leaves the previous file whole
    /// too, and at most its temporary (`.<name>.tmp-<pid>-…`), which the next write of `path`
    /// removes once that process is gone.
    public func writeSnapshot(to path: String) throws {
        try source.withReadLock { try source.writeSnapshot(path) }
    }

    /// Whether `bytes` begin as a snapshot file does (its magic number), as opposed to relay
    /// toJSON JSON: stores are told apart by content, not by file name.
    public static func isSnapshot(_ bytes: some Collection<UInt8>) -> Bool {
        SourceHandle.isSnapshot(Array(bytes.prefix(8)))
    }
}

extension RecordStore {
    /// Publishes another store's records into this one, as a payload of them all would be (relay's
    /// `publish` of a record source): what `relay-arena merge` does with snapshots. Returns the
    /// data IDs whose record is new or had some field change. Atomic: on error nothing changed.
    @discardableResult
    public func publish(contentsOf other: RecordStore) throws -> UpdatedRecordIDs {
        precondition(other !== self, "RelayArena: a store cannot be published into itself")
        return try other.source.withReadLock {
            try write { w in
                try w.merge(other.source, consuming: false)
                return UpdatedRecordIDs(store: self, symbols: w.updated)
            }
        }
    }
}

extension RecordStore {
    /// Rewrites a snapshot's checksum after its bytes were changed (tests: the checks past it).
    package static func fixSnapshotChecksum(_ bytes: inout [UInt8]) {
        SourceHandle.fixSnapshotChecksum(&bytes)
    }
}
