package io.ddf.engine.composite;

import io.ddf.engine.hash.Mix;
import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.SeqLock;
import io.ddf.engine.spi.ChangeRecorder;

import static io.ddf.engine.composite.AgedLayout.FAILURES;
import static io.ddf.engine.composite.AgedLayout.KICKS;
import static io.ddf.engine.composite.AgedLayout.LIVE;
import static io.ddf.engine.composite.AgedLayout.SLOTS;
import static io.ddf.engine.composite.AgedLayout.SLOT_BITS;
import static io.ddf.engine.composite.AgedLayout.SLOT_MASK;

/**
 * The aged cuckoo filter's table ({@link AgedCuckooCore}): buckets of four 16-bit slots in one word, an entry an
 * f-bit fingerprint over an a-bit stamp; an entry whose stamp is not in the live word counts as empty for inserts and
 * as absent for lookups. Every decision reads the bucket words first and the live stamps after them (an entry seen
 * was installed after its stamp was live). Relocations run under the table lock ({@link SeqLock}); a free slot is
 * filled by a compare-and-swap of the word read.
 */
final class AgedTable
{
    private static final long ALTERNATE_SALT = 0xC2B2AE3D27D4EB4FL;
    private static final long VICTIM_SALT = 0x165667B19E3779F9L;
    private static final long FINGERPRINT_SALT = 0x27BB2EE687B0B0FDL;

    /**
     * Relocation steps that look ahead ({@link #roomBeside}); later steps are the plain random walk. Under the promise
     * nearly every relocation ends within them; past it, where the table holds only live entries and a walk runs to
     * max-kicks, the lookahead's four loads a step would make each such insertion several times dearer.
     */
    static final int LOOKAHEAD_KICKS = 8;

    final MappedWords table;
    final long buckets;
    private final MappedWords state;
    private final SeqLock lock;
    private final int stampBits;
    private final long stampMask;
    private final long fingerprintMask;
    private final int maxKicks;
    /** h(fp) reduced onto the buckets for every fingerprint (at most 2^13: 64 KiB, derived, on heap). */
    private final long[] partnerOffsets;
    /** The lookahead's partner words ({@link #roomBeside}), under the table lock only. */
    private final long[] partners = new long[2 * SLOTS];
    /** Where relocations' moves go (FORMAT-LOG.md AGED_MOVE), or null. */
    private ChangeRecorder recorder;

    AgedTable(final AgedLayout layout, final MappedWords state, final MappedWords table, final SeqLock lock,
        final int maxKicks)
    {
        this.state = state;
        this.table = table;
        this.lock = lock;
        this.buckets = layout.buckets();
        this.stampBits = layout.stampBits();
        this.stampMask = (1L << stampBits) - 1;
        this.fingerprintMask = (1L << layout.fingerprintBits()) - 1;
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
            final long beside = kick == 1 && i1 != i2 ? (bucket == i1 ? i2 : i1) : -1;
            final int shortcut = kick <= LOOKAHEAD_KICKS ? roomBeside(bucket, beside, victimSlot(hash, kick)) : -1;
            final long displaced;
            final long at = shortcut < SLOTS ? bucket : beside;
            final int slot = shortcut & (SLOTS - 1);
            final long victim = shortcut < 0 ? 0 : table.getLongVolatile(at) >>> (slot * SLOT_BITS) & SLOT_MASK;
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
     * alone, 530 with this lookahead beside one bucket.
     *
     * @param other the second bucket to look beside, or −1.
     * @return the index of the entry with room beside it: its slot, plus {@link AgedLayout#SLOTS} when it is in
     *         {@code other}; −1 when none has.
     */
    private int roomBeside(final long bucket, final long other, final int first)
    {
        final int entries = other < 0 ? SLOTS : 2 * SLOTS;
        final long word = table.getLongVolatile(bucket);
        final long otherWord = other < 0 ? 0 : table.getLongVolatile(other);
        for (int i = 0; i < entries; i++) // independent loads: the core keeps them in flight together
        {
            final long entry = (i < SLOTS ? word : otherWord) >>> ((i & (SLOTS - 1)) * SLOT_BITS) & SLOT_MASK;
            partners[i] = table.getLongVolatile(alternate(i < SLOTS ? bucket : other, entry >>> stampBits));
        }
        final long live = state.getLongVolatile(LIVE);
        for (int k = 0; k < entries; k++)
        {
            final int i = (first + k) % entries;
            if (freeSlot(partners[i], live) >= 0)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * Under the lock: puts an entry in place of a slot's, or into a free slot of the bucket if one turned free.
     *
     * @return the entry displaced (0 when it went into a free slot).
     */
    long replace(final long bucket, final int slot, final long entry)
    {
        while (true)
        {
            final long word = table.getLongVolatile(bucket);
            final long live = state.getLongVolatile(LIVE);
            final int free = freeSlot(word, live);
            final int at = free >= 0 ? free : slot;
            if (table.compareAndSetLong(bucket, word, with(word, at, entry)))
            {
                return free >= 0 ? 0 : word >>> (at * SLOT_BITS) & SLOT_MASK;
            }
        }
    }

    /** @return whether the bucket holds the fingerprint with a live stamp. */
    boolean holds(final long bucket, final long fp)
    {
        final long word = table.getLongVolatile(bucket);
        return find(word, fp, state.getLongVolatile(LIVE));
    }

    /** Puts the entry into a free slot of the bucket (empty or expired); false when none is. */
    boolean placeIfFree(final long bucket, final long entry)
    {
        if (entry == 0)
        {
            return true; // nothing in hand
        }
        while (true)
        {
            final long word = table.getLongVolatile(bucket);
            final int free = freeSlot(word, state.getLongVolatile(LIVE));
            if (free < 0)
            {
                return false;
            }
            if (table.compareAndSetLong(bucket, word, with(word, free, entry)))
            {
                return true;
            }
        }
    }

    boolean find(final long word, final long fp, final long live)
    {
        for (int shift = 0; shift < SLOTS * SLOT_BITS; shift += SLOT_BITS)
        {
            final long slot = word >>> shift & SLOT_MASK;
            if (slot >>> stampBits == fp && (live >>> (slot & stampMask) & 1) != 0)
            {
                return true;
            }
        }
        return false;
    }

    int freeSlot(final long word, final long live)
    {
        for (int i = 0; i < SLOTS; i++)
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

    private static int victimSlot(final long hash, final int kick)
    {
        return (int)Mix.reduce(Mix.mix64((hash + kick * Mix.GOLDEN_GAMMA) ^ VICTIM_SALT), SLOTS);
    }

    /**
     * Replay's insertion of an element into generation g (its stamp), without a ticket or a record: idempotent, as
     * a lookup first.
     */
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

    boolean holdsEntry(final long bucket, final long entry)
    {
        final long word = table.getLongVolatile(bucket);
        for (int shift = 0; shift < SLOTS * SLOT_BITS; shift += SLOT_BITS)
        {
            if ((word >>> shift & SLOT_MASK) == entry)
            {
                return true;
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
