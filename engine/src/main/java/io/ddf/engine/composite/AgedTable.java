package io.ddf.engine.composite;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.SeqLock;
import io.ddf.engine.spi.ChangeRecorder;

import static io.ddf.engine.composite.AgedLayout.FAILURES;
import static io.ddf.engine.composite.AgedLayout.KICKS;
import static io.ddf.engine.composite.AgedLayout.LIVE;
import static io.ddf.engine.composite.AgedLayout.SLOT_BITS;
import static io.ddf.engine.composite.AgedLayout.SLOT_MASK;
import static io.ddf.engine.composite.AgedLayout.WORD_SLOTS;

/**
 * The aged cuckoo filter's table ({@link AgedCuckooCore}): buckets of four 16-bit slots in one word, or of eight in
 * two adjacent words (one cache line), an entry an f-bit fingerprint over an a-bit stamp; an entry whose stamp is not
 * in the live word counts as empty for inserts and as absent for lookups. Every decision reads the bucket's words
 * first and the live stamps after them (an entry seen was installed after its stamp was live). Relocations run under
 * the table lock ({@link SeqLock}); a free slot is filled by a compare-and-swap of the word read (a slot never spans
 * two words, so one word's compare-and-swap is the unit of change in either layout).
 */
final class AgedTable
{
    private static final long ALTERNATE_SALT = 0xC2B2AE3D27D4EB4FL;
    private static final long VICTIM_SALT = 0x165667B19E3779F9L;
    private static final long FINGERPRINT_SALT = 0x27BB2EE687B0B0FDL;

    /**
     * Relocation steps that look ahead ({@link #roomBeside}) in the one-word layout; later steps are the plain random
     * walk. Under the promise nearly every relocation ends within them; past it, where the table holds only live
     * entries and a walk runs to max-kicks, the lookahead's four loads a step would make each such insertion several
     * times dearer.
     */
    static final int LOOKAHEAD_KICKS = 8;
    /**
     * The same for two-word buckets, whose lookahead looks beside one bucket only (eight loads a step). Measured on
     * the core (8 M elements a window at the promised rate, load 0.95, L = 14, single writer; thread CPU ns an element,
     * medians of 5 rounds on a loaded 2-core machine): 0.32 kicks an insertion looking beside both buckets at the
     * first step (508 ns), 0.34 beside one for 8 steps (405 ns) or 2 (403 ns), 0.98 with the random walk alone (423
     * ns); again on a quieter machine (load 1.2, 7 rounds): 321 ns as here, 302-304 looking beside 2 or 4 entries at
     * every step, 345 with the walk alone, all within the rounds' spread (278-385 ns). Two: past the promise a walk to
     * max-kicks pays its lookahead only twice. (Placing a new entry into the emptier of its two buckets instead of i1
     * first left 0.31 kicks an insertion, no cheaper: at a load of 0.89-0.95 about a third of the pairs are both full
     * however they fill; not taken, as it would need the table lock, or a race check, on the lock-free path.)
     */
    static final int WIDE_LOOKAHEAD_KICKS = 2;

    /** A one in each slot's lowest bit: a slot's value times this is that value in every slot. */
    private static final long LANES = 0x0001_0001_0001_0001L;
    /** Each slot's 15 low bits. */
    private static final long LOW_LANE_BITS = 0x7FFF_7FFF_7FFF_7FFFL;

    final MappedWords table;
    final long buckets;
    /** Words per bucket: 1 or 2. */
    private final int bucketWords;
    /** log2 of the words per bucket: a bucket's first word is bucket &lt;&lt; wordShift. */
    private final int wordShift;
    /** Slots per bucket: 4 or 8. */
    private final int slots;
    /** Relocation steps that look ahead. */
    private final int lookaheadKicks;
    private final MappedWords state;
    private final SeqLock lock;
    private final int stampBits;
    private final long stampMask;
    private final long fingerprintMask;
    /** The fingerprint bits of the four slots of a word. */
    private final long fingerprintLanes;
    private final int maxKicks;
    /** h(fp) reduced onto the buckets for every fingerprint (at most 2^13: 64 KiB, derived, on heap). */
    private final long[] partnerOffsets;
    /** The lookahead's partner buckets' words ({@link #roomBeside}), under the table lock only. */
    private final long[] partners;
    /** The lookahead's own buckets' words ({@link #roomBeside}), under the table lock only. */
    private final long[] own;
    /** The lookahead's partner buckets' first words' indices ({@link #roomBeside}), under the table lock only. */
    private final long[] partnerAt;
    /** Where relocations' moves go (FORMAT-LOG.md AGED_MOVE), or null. */
    private ChangeRecorder recorder;

    AgedTable(final AgedLayout layout, final MappedWords state, final MappedWords table, final SeqLock lock,
        final int maxKicks)
    {
        this.state = state;
        this.table = table;
        this.lock = lock;
        this.buckets = layout.buckets();
        this.bucketWords = layout.bucketWords();
        this.wordShift = bucketWords == 2 ? 1 : 0;
        this.slots = layout.slots();
        this.lookaheadKicks = bucketWords == 2 ? WIDE_LOOKAHEAD_KICKS : LOOKAHEAD_KICKS;
        this.partners = new long[2 * slots * bucketWords];
        this.own = new long[2 * bucketWords];
        this.partnerAt = new long[2 * slots];
        this.stampBits = layout.stampBits();
        this.stampMask = (1L << stampBits) - 1;
        this.fingerprintMask = (1L << layout.fingerprintBits()) - 1;
        this.fingerprintLanes = fingerprintMask * LANES << stampBits;
        this.maxKicks = maxKicks;
        this.partnerOffsets = new long[1 << layout.fingerprintBits()];
        for (int fp = 0; fp < partnerOffsets.length; fp++)
        {
            partnerOffsets[fp] = Mix.reduce(Mix.mix64(fp ^ ALTERNATE_SALT), buckets);
        }
    }

    /** @return the first candidate bucket. */
    long firstBucket(final long hash)
    {
        return Mix.reduce(hash, buckets);
    }

    /** @return the table index of the bucket's first word. */
    long index(final long bucket)
    {
        return bucket << wordShift;
    }

    /** @return whether buckets are two words. */
    boolean wide()
    {
        return wordShift != 0;
    }

    long lockTable()
    {
        while (true)
        {
            final long version = lock.readBeginAcquire();
            if (lock.tryLockAcquire(version))
            {
                return version;
            }
        }
    }

    /**
     * Under the lock: displaces live victims from bucket to partner bucket until one lands in a free slot or max-kicks
     * run out; the last victim is then dropped and counted (an insert failure), except when it is the new entry
     * headed back to one of its own buckets: it then displaces one more victim there, dropped instead, so that an
     * element is present right after its own insertion.
     */
    void relocate(final long hash, final long entry, final long i1, final long i2)
    {
        long hand = entry;
        long bucket = (Mix.mix64(hash ^ VICTIM_SALT) & 1) == 0 ? i1 : i2;
        int kick = 0;
        boolean placed = false;
        long from = -1;
        while (kick < maxKicks)
        {
            kick++;
            // the first step of the one-word layout looks beside both of the element's buckets; eight slots find room
            // beside one bucket nearly always, at half the loads
            final long beside = kick == 1 && i1 != i2 && bucketWords == 1 ? (bucket == i1 ? i2 : i1) : -1;
            final int shortcut = kick <= lookaheadKicks ? roomBeside(bucket, beside, victimSlot(hash, kick)) : -1;
            final long displaced;
            final long at = shortcut < slots ? bucket : beside;
            final int slot = shortcut & (slots - 1);
            final long victim = shortcut < 0 ? 0 : slotOf(at, slot);
            final long to = alternate(at, victim >>> stampBits);
            if (victim != 0 && placeIfFree(to, victim))
            {
                moved(victim, at, to);
                displaced = replace(at, slot, hand);
                moved(hand, from, at);
                bucket = at;
                if (displaced == victim || displaced == 0)
                {
                    placed = true; // the usual case: the victim is now in its other bucket, the hand in its slot
                    break;
                }
                // else a race changed the slot (shared mode): walk on with what it held
            }
            else
            {
                displaced = replace(bucket, victimSlot(hash, kick), hand);
                moved(hand, from, bucket);
            }
            hand = displaced;
            from = bucket;
            bucket = alternate(bucket, hand >>> stampBits);
            if (placeIfFree(bucket, hand))
            {
                moved(hand, from, bucket);
                placed = true;
                break;
            }
        }
        if (!placed && hand == entry && (bucket == i1 || bucket == i2))
        {
            kick++;
            hand = replace(bucket, victimSlot(hash, kick), hand);
        }
        state.putLongRelease(KICKS, state.getLongVolatile(KICKS) + kick);
        if (!placed && (state.getLongVolatile(LIVE) >>> (hand & stampMask) & 1) != 0)
        {
            state.putLongRelease(FAILURES, state.getLongVolatile(FAILURES) + 1);
        }
    }

    /**
     * One step of lookahead for a relocation: the other buckets of the entries of one full bucket (or two: the first
     * step looks beside both of the new element's buckets), loaded together, so that their cache misses overlap where
     * a random walk pays them one after the other, and the first of them, from {@code first} on, with a free slot:
     * moving that entry there frees its slot in one step. Measured in process (bench/scripts/AgedLoadCost.java,
     * 10^7, load 0.95, L = 16; bench/README.md "aged-cuckoo's insertion"): 1,172 ns an element with the random walk
     * alone, 530 with this lookahead beside one bucket (one-word buckets). Its loads go in one burst, after every
     * partner's index is known: with eight-slot buckets at load 0.95 (10^7, L = 14, single writer) a call took 680 ns
     * with volatile loads each after its own index's computation, 455 with plain ones there, 270 in one burst (timed
     * around the call), and an element 593, 430 and 330 ns.
     *
     * @param other the second bucket to look beside, or −1.
     * @return the index of the entry with room beside it: its slot, plus the slots per bucket when it is in
     *         {@code other}; −1 when none has.
     */
    private int roomBeside(final long bucket, final long other, final int first)
    {
        final int entries = other < 0 ? slots : 2 * slots;
        for (int k = 0; k < bucketWords; k++)
        {
            own[k] = table.getLongVolatile(index(bucket) + k);
            own[bucketWords + k] = other < 0 ? 0 : table.getLongVolatile(index(other) + k);
        }
        for (int i = 0; i < entries; i++) // where the partners are first, without a load from the table between them
        {
            final int j = i & (slots - 1);
            final long word = own[(i < slots ? 0 : bucketWords) + j / WORD_SLOTS];
            final long entry = word >>> (j % WORD_SLOTS * SLOT_BITS) & SLOT_MASK;
            partnerAt[i] = index(alternate(i < slots ? bucket : other, entry >>> stampBits));
        }
        // then every load in one burst, and plain: they are a hint (placeIfFree and replace read again and decide by
        // compare-and-swap), and volatile reads between them made the compiler reload fields and split the burst
        for (int k = 0; k < bucketWords; k++)
        {
            for (int i = 0; i < entries; i++)
            {
                partners[i * bucketWords + k] = table.getLongPlain(partnerAt[i] + k);
            }
        }
        final long live = state.getLongVolatile(LIVE);
        for (int n = 0; n < entries; n++)
        {
            final int i = (first + n) % entries;
            for (int k = 0; k < bucketWords; k++)
            {
                if (freeSlot(partners[i * bucketWords + k], live) >= 0)
                {
                    return i;
                }
            }
        }
        return -1;
    }

    /** @return the entry in a slot (0..slots − 1) of the bucket. */
    private long slotOf(final long bucket, final int slot)
    {
        return table.getLongVolatile(index(bucket) + slot / WORD_SLOTS) >>> (slot % WORD_SLOTS * SLOT_BITS) &
            SLOT_MASK;
    }

    /**
     * Under the lock: puts an entry in place of a slot's (0..slots − 1), or into a free slot of the bucket if one
     * turned free.
     *
     * @return the entry displaced (0 when it went into a free slot).
     */
    long replace(final long bucket, final int slot, final long entry)
    {
        final long first = index(bucket);
        while (true)
        {
            final long word = table.getLongVolatile(first);
            final long high = bucketWords == 1 ? 0 : table.getLongVolatile(first + 1);
            final long live = state.getLongVolatile(LIVE); // after the words
            final int free = freeSlot(word, live);
            final int freeHigh = free >= 0 || bucketWords == 1 ? -1 : freeSlot(high, live);
            final int k = free >= 0 ? 0 : freeHigh >= 0 ? 1 : slot / WORD_SLOTS;
            final long read = k == 0 ? word : high;
            final int at = free >= 0 ? free : freeHigh >= 0 ? freeHigh : slot % WORD_SLOTS;
            if (table.compareAndSetLong(first + k, read, with(read, at, entry)))
            {
                return free >= 0 || freeHigh >= 0 ? 0 : read >>> (at * SLOT_BITS) & SLOT_MASK;
            }
        }
    }

    /** @return whether the bucket holds the fingerprint with a live stamp. */
    boolean holds(final long bucket, final long fp)
    {
        final long first = index(bucket);
        final long word = table.getLongVolatile(first);
        final long high = bucketWords == 1 ? 0 : table.getLongVolatile(first + 1);
        final long live = state.getLongVolatile(LIVE);
        return find(word, fp, live) || bucketWords == 2 && find(high, fp, live);
    }

    /** Puts the entry into a free slot of the bucket (empty or expired); false when none is. */
    boolean placeIfFree(final long bucket, final long entry)
    {
        if (entry == 0)
        {
            return true; // nothing in hand
        }
        final long first = index(bucket);
        while (true)
        {
            final long word = table.getLongVolatile(first);
            final long high = bucketWords == 1 ? 0 : table.getLongVolatile(first + 1);
            final long live = state.getLongVolatile(LIVE);
            final int free = freeSlot(word, live);
            if (free >= 0)
            {
                if (table.compareAndSetLong(first, word, with(word, free, entry)))
                {
                    return true;
                }
                continue;
            }
            final int freeHigh = bucketWords == 1 ? -1 : freeSlot(high, live);
            if (freeHigh < 0)
            {
                return false;
            }
            if (table.compareAndSetLong(first + 1, high, with(high, freeHigh, entry)))
            {
                return true;
            }
        }
    }

    /**
     * @return whether a slot of the word holds the fingerprint with a live stamp. The four slots are compared at once
     *         (their fingerprint bits xor fp are zero only in a slot that matches); only a match, about one word in
     *         500 at 1 %, reads its stamp against the live word.
     */
    boolean find(final long word, final long fp, final long live)
    {
        final long differ = (word ^ fp * LANES << stampBits) & fingerprintLanes;
        // each slot's top bit set exactly when its 16 bits of differ are zero (no carry crosses a slot)
        long match = ~((differ & LOW_LANE_BITS) + LOW_LANE_BITS | differ | LOW_LANE_BITS);
        while (match != 0)
        {
            final int shift = Long.numberOfTrailingZeros(match) - (SLOT_BITS - 1);
            if ((live >>> (word >>> shift & stampMask) & 1) != 0)
            {
                return true;
            }
            match &= match - 1;
        }
        return false;
    }

    int freeSlot(final long word, final long live)
    {
        for (int i = 0; i < WORD_SLOTS; i++)
        {
            if ((live >>> (word >>> (i * SLOT_BITS) & stampMask) & 1) == 0)
            {
                return i;
            }
        }
        return -1;
    }

    static long with(final long word, final int slot, final long entry)
    {
        final int shift = slot * SLOT_BITS;
        return word & ~(SLOT_MASK << shift) | entry << shift;
    }

    /** @return the element's f-bit fingerprint (any value: the stamp marks a slot used). */
    long fingerprint(final long hash)
    {
        return Mix.mix64(hash ^ FINGERPRINT_SALT) & fingerprintMask;
    }

    /** @return (h(fp) − bucket) mod n, an involution. */
    long alternate(final long bucket, final long fp)
    {
        final long other = partnerOffsets[(int)fp] - bucket;
        return other < 0 ? other + buckets : other;
    }

    private int victimSlot(final long hash, final int kick)
    {
        return (int)Mix.reduce(Mix.mix64((hash + kick * Mix.GOLDEN_GAMMA) ^ VICTIM_SALT), slots);
    }

    /**
     * Records an older entry's move from one of its buckets to the other (AGED_MOVE, under the table lock, so in the
     * order of the moves): a power cut may keep neither page's copy, and replay puts it back from the record.
     */
    private void moved(final long entry, final long from, final long to)
    {
        final ChangeRecorder changes = recorder;
        if (changes != null && entry != 0 && from >= 0)
        {
            AgedReplay.recordMove(changes, entry, from, to);
        }
    }

    /** @param changes where relocations' moves go (null: nowhere). */
    void recordTo(final ChangeRecorder changes)
    {
        this.recorder = changes;
    }

    /**
     * AGED_MOVE's replay: the entry, if its stamp is live, in one of its two buckets: put into {@code to} (or, full,
     * by relocation) when neither holds it. Idempotent.
     */
    void replayMove(final long entry, final long from, final long to)
    {
        if ((state.getLongVolatile(LIVE) >>> (entry & stampMask) & 1) == 0 || holdsEntry(from, entry) ||
            holdsEntry(to, entry))
        {
            return;
        }
        final long version = lockTable();
        try
        {
            if (!placeIfFree(to, entry) && !placeIfFree(from, entry))
            {
                relocate(Mix.mix64(entry ^ to), entry, to, from);
            }
        }
        finally
        {
            lock.unlockRelease(version + 1);
        }
    }

    /**
     * Replay's insertion of an element into generation g (its stamp), without a ticket or a record: idempotent, as
     * a lookup first.
     */
    void insertReplayed(final long hash, final int stamp)
    {
        final long fp = fingerprint(hash);
        final long i1 = Mix.reduce(hash, buckets);
        final long i2 = alternate(i1, fp);
        final long entry = fp << stampBits | stamp;
        if (holdsEntry(i1, entry) || holdsEntry(i2, entry))
        {
            return;
        }
        final long version = lockTable();
        try
        {
            if (!placeIfFree(i1, entry) && !placeIfFree(i2, entry))
            {
                relocate(hash, entry, i1, i2);
            }
        }
        finally
        {
            lock.unlockRelease(version + 1);
        }
    }

    /** @return whether a slot of the bucket, either word, holds exactly the entry (live or not). */
    boolean holdsEntry(final long bucket, final long entry)
    {
        for (int k = 0; k < bucketWords; k++)
        {
            final long word = table.getLongVolatile(index(bucket) + k);
            for (int shift = 0; shift < WORD_SLOTS * SLOT_BITS; shift += SLOT_BITS)
            {
                if ((word >>> shift & SLOT_MASK) == entry)
                {
                    return true;
                }
            }
        }
        return false;
    }

    /** @return insert failures: live entries dropped after max-kicks relocations. */
    long failures()
    {
        return state.getLongVolatile(FAILURES);
    }
}
