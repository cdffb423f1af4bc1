package io.ddf.engine.cuckoo;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.memory.PackedCells;

/**
 * Cuckoo filter whose buckets are wider than a word (b·f &gt; 64): a bucket takes whole words of ⌊64 / f⌋ slots.
 * A bucket cannot be read or changed with one compare-and-swap, so every insertion runs under the table lock
 * (see {@link CuckooCore}); lookups take no lock but read the version before and after, and retry when an
 * insertion overlapped them. A hit (DUPLICATE) writes nothing. Atomic per element; insertions are serialised.
 */
final class WideCuckooCore extends CuckooCore
{
    private final int slotsPerWord;
    private final int wordsPerBucket;

    WideCuckooCore(final CuckooLayout layout, final int maxKicks, final MappedWords region)
    {
        super(layout, maxKicks, region);
        this.slotsPerWord = layout.slotsPerWord();
        this.wordsPerBucket = layout.wordsPerBucket();
    }

    @Override
    public boolean stream(final long hash)
    {
        final long fp = fingerprint(hash);
        final long i1 = firstBucket(hash);
        final long i2 = alternate(i1, fp);
        while (true)
        {
            final long version = lock.readBeginAcquire();
            if (holds(i1, fp) || holds(i2, fp))
            {
                return true;
            }
            // The lock is only taken if nothing was written since the version was read, so the miss still holds.
            if (tryLock(version))
            {
                try
                {
                    return insertLocked(hash, fp, i1, i2);
                }
                finally
                {
                    unlock(version);
                }
            }
        }
    }

    @Override
    boolean holds(final long bucket, final long fp)
    {
        final long base = bucket * wordsPerBucket;
        for (int s = 0; s < slots; s += slotsPerWord)
        {
            final long word = table.getLongVolatile(base + s / slotsPerWord);
            final int inWord = Math.min(slotsPerWord, slots - s);
            for (int i = 0, shift = 0; i < inWord; i++, shift += fingerprintBits)
            {
                if (PackedCells.get(word, shift, fingerprintMask) == fp)
                {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    boolean placeIfFree(final long bucket, final long fp)
    {
        final long base = bucket * wordsPerBucket;
        for (int s = 0; s < slots; s += slotsPerWord)
        {
            final long index = base + s / slotsPerWord;
            final int inWord = Math.min(slotsPerWord, slots - s);
            while (true)
            {
                final long word = table.getLongVolatile(index);
                int free = -1;
                for (int i = 0, shift = 0; i < inWord; i++, shift += fingerprintBits)
                {
                    if (PackedCells.get(word, shift, fingerprintMask) == 0)
                    {
                        free = i;
                        break;
                    }
                }
                if (free < 0)
                {
                    break;
                }
                if (table.compareAndSetLong(index, word, word | fp << (free * fingerprintBits)))
                {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    long replace(final long bucket, final int slot, final long fp)
    {
        final long index = bucket * wordsPerBucket + slot / slotsPerWord;
        final int shift = (slot % slotsPerWord) * fingerprintBits;
        while (true)
        {
            final long word = table.getLongVolatile(index);
            final long old = PackedCells.get(word, shift, fingerprintMask);
            if (table.compareAndSetLong(index, word, PackedCells.with(word, shift, fingerprintMask, fp)))
            {
                return old;
            }
        }
    }

    @Override
    long slot(final long bucket, final int slot)
    {
        final long index = bucket * wordsPerBucket + slot / slotsPerWord;
        return (table.getLongVolatile(index) >>> ((slot % slotsPerWord) * fingerprintBits)) & fingerprintMask;
    }
}
