package io.ddf.engine.window;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;

/**
 * A ring of w fingerprints of f bits, ⌊64 / f⌋ to a word with none straddling two words (so a word can be
 * searched for a fingerprint in a few operations, SWAR). The ring itself does not know its head: the owning core
 * keeps the number of insertions n, and slot n mod w is the oldest once the ring is full.
 *
 * <p>Not thread-safe: callers write under their {@link io.ddf.engine.memory.SeqLock SeqLock} and read inside a
 * validated read.
 */
final class FingerprintRing
{
    private final MappedWords words;
    private final long slots;
    private final int bits;
    private final int perWord;
    private final long mask;
    /** Each field's low f − 1 bits set. */
    private final long lowBits;
    /** Each field's top bit set. */
    private final long highBits;
    /** Each field's lowest bit set: multiplying a fingerprint by it repeats it in every field. */
    private final long ones;

    /**
     * @param words the ring's words, at least {@link #words(long, int)} of them.
     * @param slots w.
     * @param bits  f, 1..64.
     */
    FingerprintRing(final MappedWords words, final long slots, final int bits)
    {
        this.words = words;
        this.slots = slots;
        this.bits = bits;
        this.perWord = 64 / bits;
        this.mask = PackedCells.mask(bits);
        long low = 0;
        long high = 0;
        long one = 0;
        for (int i = 0; i < perWord; i++)
        {
            low |= (mask >>> 1) << (i * bits);
            high |= (1L << (bits - 1)) << (i * bits);
            one |= 1L << (i * bits);
        }
        this.lowBits = low;
        this.highBits = high;
        this.ones = one;
    }

    /**
     * @param slots w.
     * @param bits  f.
     * @return words the ring needs.
     */
    static long words(final long slots, final int bits)
    {
        final int perWord = 64 / bits;
        return (slots + perWord - 1) / perWord;
    }

    /**
     * @param slot index in [0, w).
     * @return the fingerprint stored there (0 for a slot never written).
     */
    long get(final long slot)
    {
        final long word = slot / perWord;
        final int shift = (int)(slot - word * perWord) * bits;
        return PackedCells.get(words.getLongPlain(word), shift, mask);
    }

    /**
     * @param slot        index in [0, w).
     * @param fingerprint the value to store, within f bits.
     */
    void set(final long slot, final long fingerprint)
    {
        final long word = slot / perWord;
        final int shift = (int)(slot - word * perWord) * bits;
        final long old = words.getLongPlain(word);
        words.putLongPlain(word, PackedCells.with(old, shift, mask, fingerprint));
    }

    /**
     * Linear scan of the whole ring (O(w / ⌊64 / f⌋) words), testing every field of a word at once: a field equals
     * the fingerprint iff its XOR with it is zero, and a field is zero iff neither its top bit nor (low bits +
     * all-ones-but-top) has its top bit set, which never carries into the next field.
     *
     * @param fingerprint a non-zero value within f bits (slots never written hold 0 and so never match).
     * @return whether some slot holds it.
     */
    boolean scan(final long fingerprint)
    {
        final long pattern = fingerprint * ones;
        final long count = words(slots, bits);
        for (long i = 0; i < count; i++)
        {
            final long x = words.getLongPlain(i) ^ pattern;
            final long t = (x & lowBits) + lowBits;
            if ((~(t | x | lowBits) & highBits) != 0)
            {
                return true;
            }
        }
        return false;
    }

    /** @return w. */
    long slots()
    {
        return slots;
    }
}
