package io.ddf.engine.changelog;

/** The op codes of the engine's records (FORMAT-LOG.md, "Records per kind and what replay guarantees"). */
public final class KindOps
{
    /** A fixed-size kind judged the element UNSEEN: replayed by streaming it. */
    public static final int STREAM = 0x10;
    /** ddf's cuckoo kind inserted one more copy. */
    public static final int ADD = 0x11;
    /** ddf's cuckoo kind deleted one copy. */
    public static final int DELETE = 0x12;
    /** A kind streamed with a time (arg: the time in ms). */
    public static final int STREAM_AT = 0x13;
    /** fifo-bloom: an item went into a generation (aux: generation mod 2^22; arg: its ticket). */
    public static final int FIFO_ADD = 0x18;
    /** fifo-bloom: a turn to generation arg (two units: start count in hash, time, by-time flag). */
    public static final int FIFO_TURN = 0x19;
    /** aged-cuckoo: an element went into a generation (aux: generation mod 2^22; arg: its ticket + 1). */
    public static final int AGED_ADD = 0x1A;
    /** aged-cuckoo: a turn to generation arg (two units: start count in hash, time, by-time flag). */
    public static final int AGED_TURN = 0x1B;
    /** aged-cuckoo: the generations whose window had passed by time arg expired. */
    public static final int AGED_EXPIRE = 0x1C;
    /** aged-cuckoo: a relocation moved an entry (aux) from bucket hash to bucket arg. */
    public static final int AGED_MOVE = 0x1D;
    /** A scaling chain's add (aux: layer; hash a; arg: the layer's count after; two units: b). */
    public static final int CHAIN_ADD = 0x20;
    /** A scaling chain's growth (aux: the new layer; hash: capacity; arg: error rate bits). */
    public static final int CHAIN_GROW = 0x21;
    /** RedisBloom cuckoo: a slot's new fingerprint (aux: the layer, plus the fingerprint times 1024; hash: the byte offset). */
    public static final int CF_SLOT = 0x22;
    /** RedisBloom cuckoo: the counters (hash: items; arg: deletions). */
    public static final int CF_COUNTERS = 0x23;
    /** RedisBloom cuckoo: a growth (aux: the new sub-filter; hash: its buckets). */
    public static final int CF_GROW = 0x24;
    /** RedisBloom cuckoo: a compaction left aux sub-filters. */
    public static final int CF_SHRINK = 0x25;

    private KindOps()
    {
    }
}
