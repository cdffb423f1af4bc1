package io.ddf.engine.cuckoo;

import io.ddf.engine.memory.PackedCells;

/**
 * How a cuckoo table of n buckets of b slots of f-bit fingerprints is packed into 64-bit words ({@link PackedCells},
 * buckets as rows), after a first cache line of state words (the table lock and version, and the relocation counters).
 *
 * <p>Narrow buckets (b·f ≤ 64): ⌊64 / (b·f)⌋ buckets share a word and none straddles two words, so one
 * compare-and-swap installs a fingerprint into a bucket. Wide buckets (b·f &gt; 64): a bucket takes whole words of
 * ⌊64 / f⌋ slots each.
 */
final class CuckooLayout
{
    /** Words of state before the table: one cache line. */
    static final int STATE_WORDS = 8;

    private final PackedCells cells;

    CuckooLayout(final long buckets, final int slots, final int fingerprintBits)
    {
        this.cells = new PackedCells(buckets, slots, fingerprintBits, 0); // the lock is a state word, not a bit
    }

    /** @return number of buckets n. */
    long buckets()
    {
        return cells.rows();
    }

    /** @return slots per bucket b. */
    int slots()
    {
        return cells.cellsPerRow();
    }

    /** @return fingerprint bits f. */
    int fingerprintBits()
    {
        return cells.cellBits();
    }

    /** @return whether a bucket spans several words. */
    boolean wide()
    {
        return cells.wide();
    }

    /** @return buckets per word (narrow), 0 for wide buckets. */
    int bucketsPerWord()
    {
        return cells.rowsPerWord();
    }

    /** @return fingerprint slots per word. */
    int slotsPerWord()
    {
        return cells.cellsPerWord();
    }

    /** @return words per bucket (1 for narrow buckets). */
    int wordsPerBucket()
    {
        return cells.wordsPerRow();
    }

    /** @return words holding the buckets. */
    long tableWords()
    {
        return cells.words();
    }

    /** @return region bytes: state line plus table, in whole cache lines. */
    long regionBytes()
    {
        return ((STATE_WORDS + tableWords()) * 8 + 63) / 64 * 64;
    }

    /**
     * The structural invariant of a cuckoo table: every bit outside a fingerprint slot is zero (bits of a word
     * that hold no bucket or slot, and the padding after the buckets); the state words before the table are not
     * checked (a crash may leave the table lock held, which recover() releases).
     *
     * @param region the kind's region (state words, then the table); read only.
     * @throws IllegalArgumentException naming the first word with stray bits.
     */
    void checkUnusedBitsZero(final io.ddf.engine.memory.MappedWords region)
    {
        final io.ddf.engine.memory.MappedWords table = region.slice(STATE_WORDS, region.words() - STATE_WORDS);
        final long stray = cells.firstStrayWord(table, 0);
        if (stray >= 0)
        {
            throw new IllegalArgumentException("cuckoo table word " + stray + (stray >= cells.words() ?
                " (padding after the buckets)" : "") + " has bits set outside its fingerprint slots: 0x" +
                Long.toHexString(table.getLongPlain(stray)));
        }
    }

    /** @return a one-line description. */
    String describe()
    {
        return wide() ?
            wordsPerBucket() + " words per bucket, " + slotsPerWord() + " slots per word, table lock" :
            bucketsPerWord() + " buckets per 64-bit word, lock-free insert into a free slot";
    }
}
