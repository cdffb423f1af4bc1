package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;

/**
 * How the aged cuckoo filter ({@code aged-cuckoo}, FORMAT-AGED-CUCKOO.md) lays out its region: 32 state words, then
 * 64 words of stamp end times (word 32 + s holds END[s] for stamp s in 1..S), then the table: buckets of one 64-bit
 * word of four 16-bit slots (the files made before bucket-words), or of two adjacent words, eight slots in one
 * 16-byte-aligned pair (always one cache line). A slot holds an f-bit fingerprint in its high bits and an a-bit stamp
 * in its low bits (f + a = 16); stamp 0 marks an empty slot, whose fingerprint bits are then zero too.
 */
final class AgedLayout
{
    /** Slots per word. */
    static final int WORD_SLOTS = 4;
    /** Bits per slot. */
    static final int SLOT_BITS = 16;
    /** Mask of one slot. */
    static final long SLOT_MASK = 0xFFFFL;
    /** Words of state before the stamp end times. */
    static final int STATE_WORDS = 32;
    /** Words of stamp end times (END[s] at ENDS + s; s = 0 unused). */
    static final int END_WORDS = 64;
    /** First word of the end times. */
    static final int ENDS = STATE_WORDS;
    /** First word of the table. */
    static final int TABLE = STATE_WORDS + END_WORDS;

    /** State word: the table lock and version ({@code memory.SeqLock}). */
    static final int LOCK = 0;
    /** State word: the current generation G (published). */
    static final int READY = 1;
    /** State word: insertion tickets claimed; ticket t belongs to generation t / c. */
    static final int INSERTIONS = 2;
    /** State word: the live stamps, bit s for stamp s (the current generation's always among them). */
    static final int LIVE = 3;
    /** State word: a lower bound of when the next turn or expiry is due (epoch ms). */
    static final int DEADLINE = 4;
    /** State word: the filter's time (the latest turn or expiry it acted on). */
    static final int LAST_TIME = 5;
    /** State word: 1 once the filter has a time (its first call with one). */
    static final int STARTED = 6;
    /** State word: when the current generation started. */
    static final int START = 7;
    /** State word: turns because W / L had passed. */
    static final int TIME_TURNS = 8;
    /** State word: turns because the current generation held c new elements. */
    static final int COUNT_TURNS = 9;
    /** State word: turns that reused a stamp whose generation was still live (past the promise). */
    static final int RECYCLED_EARLY = 10;
    /** State word: generations expired by time. */
    static final int EXPIRED = 11;
    /** State word: insert failures: a live entry dropped after max-kicks relocations. */
    static final int FAILURES = 12;
    /** State word: relocations made. */
    static final int KICKS = 13;
    /** State word: the sweep's next table word + 1 (its next bucket's with one word a bucket), or 0 between passes. */
    static final int CURSOR = 14;
    /** State word: the filter's time when the pass under way started. */
    static final int PASS_START = 15;
    /** State word: PASS_START of the last completed pass: every stamp expired by then is gone from the table. */
    static final int SWEPT_BEFORE = 16;
    /** State word: the filter's time of the latest expiry, which a pass starting at or after it clears. */
    static final int PASS_WANTED = 17;
    /** State word: the sweep's lock (1 while a thread sweeps). */
    static final int SWEEPING = 18;
    /** State word: turns that had to sweep the whole table for the stamp they reuse. */
    static final int TURN_SWEEPS = 19;
    /** State word: expired slots cleared by sweeps. */
    static final int CLEARED = 20;
    /**
     * State word: the latest time an insertion or a due call was given. A turn by count ends its generation no earlier
     * (elements of one generation may come with times out of order, or from threads delayed between their time and
     * their ticket), so that each element stays live at least W after its own time.
     */
    static final int LATEST = 21;
    /**
     * State word: the stamps forgotten early past the promise ({@link AgedForgetting#forgetPastPromise}) and not reused
     * since, bit s for stamp s; written by the turning thread only. (Their END stays their generation's end, which the
     * forgetting reads for the generations after them.)
     */
    static final int FORGOTTEN = 22;
    /**
     * State word: the forgotten stamps that no completed pass of the sweep began after (their entries may remain: the
     * turn that reuses one sweeps the table itself). The forgetting sets a bit after clearing the live bit; a pass
     * clears, at its end, the bits set when it began; a reuse clears its stamp's.
     */
    static final int FORGOTTEN_UNSWEPT = 23;
    /** State word: {@link #FORGOTTEN_UNSWEPT} as the pass under way began, less the stamps reused since. */
    static final int PASS_FORGOTTEN = 24;
    /**
     * First of 7 state words of fill levels: stamp s's generation's elements over c, in 127ths rounded down (127: c
     * elements, a generation turned by count), 7 bits at bit 7 ((s − 1) mod 9) of word FILL + (s − 1) / 9.
     */
    static final int FILL = 25;
    /** Fill levels per fill word. */
    static final int FILLS_PER_WORD = 9;
    /** Bits per fill level. */
    static final int FILL_BITS = 7;
    /** The fill level of a generation holding c elements. */
    static final int FULL = (1 << FILL_BITS) - 1;

    private final long buckets;
    private final int fingerprintBits;
    private final int stampBits;
    private final int bucketWords;

    /**
     * @param buckets         buckets n.
     * @param fingerprintBits f.
     * @param bucketWords     words per bucket: 1 (four slots) or 2 (eight).
     */
    AgedLayout(final long buckets, final int fingerprintBits, final int bucketWords)
    {
        this.buckets = buckets;
        this.fingerprintBits = fingerprintBits;
        this.stampBits = SLOT_BITS - fingerprintBits;
        this.bucketWords = bucketWords;
    }

    /** @return buckets n. */
    long buckets()
    {
        return buckets;
    }

    /** @return words per bucket: 1 or 2. */
    int bucketWords()
    {
        return bucketWords;
    }

    /** @return slots per bucket: 4 or 8. */
    int slots()
    {
        return WORD_SLOTS * bucketWords;
    }

    /** @return the table's words: n × words per bucket. */
    long tableWords()
    {
        return buckets * bucketWords;
    }

    /** @return fingerprint bits f. */
    int fingerprintBits()
    {
        return fingerprintBits;
    }

    /** @return stamp bits a = 16 − f. */
    int stampBits()
    {
        return stampBits;
    }

    /** @return distinct stamps S = 2^a − 1 (0 is the empty slot's). */
    int stamps()
    {
        return stamps(stampBits);
    }

    /** @return 2^a − 1 distinct stamps, at most 63 (the live mask is one word). */
    static int stamps(final int stampBits)
    {
        return (int)Math.min(END_WORDS - 1, (1L << stampBits) - 1);
    }

    /** @return region bytes: state, end times and table, in whole cache lines. */
    long regionBytes()
    {
        return ((TABLE + tableWords()) * Long.BYTES + 63) / 64 * 64;
    }

    /**
     * The structural invariants: stamp 0 only with a zero fingerprint, live bits only for stamps 1..S, the current
     * generation's stamp live, end times only for stamps 1..S, reserved words and padding zero, the sweep cursor in
     * range. A crash may leave the table and sweep locks held, which recover() releases.
     *
     * @param region the kind's region, read only.
     * @throws IllegalArgumentException naming the first violation.
     */
    void check(final MappedWords region)
    {
        final int stamps = stamps();
        final long live = region.getLongVolatile(LIVE);
        final long ready = region.getLongVolatile(READY);
        require(ready >= 0 && region.getLongVolatile(INSERTIONS) >= 0, "generation " + ready + " or tickets negative");
        require((live & ~validStamps(stamps)) == 0, "live stamps 0x" + Long.toHexString(live) + " name a stamp " +
            "outside 1.." + stamps);
        require(live == 0 && ready == 0 || (live >>> AgedStamps.stampOf(ready, stamps) & 1) != 0,
            "the current generation's stamp is not live");
        final long words = tableWords();
        final long cursor = region.getLongVolatile(CURSOR);
        require(cursor >= 0 && cursor <= words + 1, "sweep cursor " + cursor + " is not in 0.." + (words + 1));
        for (int w = FORGOTTEN; w <= PASS_FORGOTTEN; w++)
        {
            require((region.getLongVolatile(w) & ~validStamps(stamps)) == 0, "forgotten stamps 0x" +
                Long.toHexString(region.getLongVolatile(w)) + " in word " + w + " name a stamp outside 1.." + stamps);
        }
        for (int w = FILL; w < STATE_WORDS; w++)
        {
            require(region.getLongVolatile(w) >>> (FILLS_PER_WORD * FILL_BITS) == 0, "fill word " + w +
                " has bits past its levels");
        }
        for (int s = stamps + 1; s < END_WORDS; s++)
        {
            require(region.getLongVolatile(ENDS + s) == 0, "end time of unused stamp " + s + " is not zero");
        }
        require(region.getLongVolatile(ENDS) >= 0, "the first time (word " + ENDS + ") is negative");
        final long stampMask = (1L << stampBits) - 1;
        for (long w = 0; w < words; w++)
        {
            final long word = region.getLongPlain(TABLE + w);
            for (int i = 0; i < WORD_SLOTS; i++)
            {
                final long slot = word >>> (i * SLOT_BITS) & SLOT_MASK;
                require(slot == 0 || (slot & stampMask) != 0, "bucket " + w / bucketWords + " slot " +
                    (w % bucketWords * WORD_SLOTS + i) + " holds fingerprint bits with stamp 0 (empty): 0x" +
                    Long.toHexString(word));
            }
        }
        for (long w = TABLE + words; w < region.words(); w++)
        {
            require(region.getLongPlain(w) == 0, "padding word " + w + " after the buckets is not zero");
        }
    }

    /** @return the mask of stamps 1..S. */
    static long validStamps(final int stamps)
    {
        return ((1L << stamps) - 1) << 1;
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException("aged-cuckoo: " + message);
        }
    }
}
