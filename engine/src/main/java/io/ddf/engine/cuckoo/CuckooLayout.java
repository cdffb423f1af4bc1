package io.ddf.engine.cuckoo;

/**
 * How a cuckoo table of n buckets of b slots of f-bit fingerprints is packed into 64-bit words, after a first
 * cache line of state words (the table lock and version, and the relocation counters).
 *
 * <p>Narrow buckets (b·f ≤ 64): ⌊64 / (b·f)⌋ buckets share a word and none straddles two words, so one
 * compare-and-swap installs a fingerprint into a bucket. Wide buckets (b·f &gt; 64): a bucket takes whole words of
 * ⌊64 / f⌋ slots each.
 */
final class CuckooLayout
{
    /** Words of state before the table: one cache line. */
    static final int STATE_WORDS = 8;

    private final long buckets;
    private final int slots;
    private final int fingerprintBits;
    private final boolean wide;
    private final int bucketsPerWord;
    private final int slotsPerWord;
    private final int wordsPerBucket;
    private final long tableWords;

    CuckooLayout(final long buckets, final int slots, final int fingerprintBits)
    {
        this.buckets = buckets;
        this.slots = slots;
        this.fingerprintBits = fingerprintBits;
        final int bucketBits = slots * fingerprintBits;
        this.wide = bucketBits > 64;
        if (wide)
        {
            this.bucketsPerWord = 0;
            this.slotsPerWord = 64 / fingerprintBits;
            this.wordsPerBucket = (slots + slotsPerWord - 1) / slotsPerWord;
            this.tableWords = buckets * wordsPerBucket;
        }
        else
        {
            this.bucketsPerWord = 64 / bucketBits;
            this.slotsPerWord = slots * bucketsPerWord;
            this.wordsPerBucket = 1;
            this.tableWords = (buckets + bucketsPerWord - 1) / bucketsPerWord;
        }
    }

    /** @return number of buckets n. */
    long buckets()
    {
        return buckets;
    }

    /** @return slots per bucket b. */
    int slots()
    {
        return slots;
    }

    /** @return fingerprint bits f. */
    int fingerprintBits()
    {
        return fingerprintBits;
    }

    /** @return whether a bucket spans several words. */
    boolean wide()
    {
        return wide;
    }

    /** @return buckets per word (narrow), 0 for wide buckets. */
    int bucketsPerWord()
    {
        return bucketsPerWord;
    }

    /** @return fingerprint slots per word. */
    int slotsPerWord()
    {
        return slotsPerWord;
    }

    /** @return words per bucket (1 for narrow buckets). */
    int wordsPerBucket()
    {
        return wordsPerBucket;
    }

    /** @return words holding the buckets. */
    long tableWords()
    {
        return tableWords;
    }

    /** @return region bytes: state line plus table, in whole cache lines. */
    long regionBytes()
    {
        return ((STATE_WORDS + tableWords) * 8 + 63) / 64 * 64;
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
        final long bucketBits = (long)slots * fingerprintBits;
        final io.ddf.engine.memory.MappedWords table = region.slice(STATE_WORDS, region.words() - STATE_WORDS);
        final long stray = table.firstStrayBits(w ->
        {
            if (w >= tableWords)
            {
                return 0;
            }
            if (wide)
            {
                final long inBucket = w % wordsPerBucket;
                return io.ddf.engine.memory.MappedWords.lowBits(
                    Math.min(slotsPerWord, slots - inBucket * slotsPerWord) * fingerprintBits);
            }
            return io.ddf.engine.memory.MappedWords.lowBits(
                Math.min(bucketsPerWord, buckets - w * bucketsPerWord) * bucketBits);
        });
        if (stray >= 0)
        {
            throw new IllegalArgumentException("cuckoo table word " + stray + (stray >= tableWords ?
                " (padding after the buckets)" : "") + " has bits set outside its fingerprint slots: 0x" +
                Long.toHexString(table.getLongPlain(stray)));
        }
    }

    /** @return a one-line description. */
    String describe()
    {
        return wide ?
            wordsPerBucket + " words per bucket, " + slotsPerWord + " slots per word, table lock" :
            bucketsPerWord + " buckets per 64-bit word, lock-free insert into a free slot";
    }
}
