// The C core keeps the large blocks (256 KiB and more) that stores and normalizers free, so the next
// payload writes into pages the process already owns instead of asking the kernel for fresh,
// zeroed ones (see ra_alloc.c). These are the knobs for a process that wants the memory back.

extension RecordStore {
    /// Bytes of freed arena memory kept for reuse by the next stores and payloads.
    public static var retainedMemoryBytes: Int { ArenaMemory.retainedBytes }

    /// Returns the kept memory to the system now.
    public static func releaseRetainedMemory() { ArenaMemory.releaseRetained() }

    /// At most this many bytes of freed arena memory are kept (256 MiB unless set; 0 keeps none).
    /// Lowering it releases what is kept past the new limit.
    public static func setRetainedMemoryLimit(_ bytes: Int) {
        ArenaMemory.setRetainedLimit(bytes)
    }
}
