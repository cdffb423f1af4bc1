package io.ddf.engine.bloom;

import io.ddf.engine.memory.MappedWords;
import io.ddf.engine.spi.FilterCore;

/**
 * A2, the aging Bloom filter with two active buffers (Yoon, IEEE TKDE 2010): two Bloom filters of b bits, the
 * "active" one and the "warm" one, K positions each. DUPLICATE if either holds the element. An element the active
 * buffer does not hold is inserted in it (one found only in the warm buffer is copied), and counts against the
 * active buffer's quota of w/2 insertions. An insertion that finds the quota taken first clears the warm buffer and
 * swaps the roles (the cleared buffer becomes the active one). So the filter always holds at least the last w/2
 * insertions and at most the last w.
 *
 * <p>A state word of the region holds the active buffer's index and its insertion count, plus a swap flag. A
 * {@code stream} reserves its insertion with one compare-and-swap of that word and sets its bits with one
 * compare-and-swap each; an element as a whole is not isolated from other threads' updates. A swap is done under
 * the flag: the thread that set it clears the warm buffer while the others wait, then publishes the new state.
 * {@link #recover()} finishes a swap a killed process left half done.
 */
final class A2Core implements FilterCore
{
    private static final long SWAPPING = 1L << 63;
    private static final long ACTIVE_BIT = 1L << 62;
    private static final long COUNT_MASK = ACTIVE_BIT - 1;
    private static final long STATE_WORD = 0;
    /** The state word's cache line, then the two buffers. */
    private static final long STATE_WORDS = 8;

    private final MappedWords region;
    private final MappedWords[] buffers;
    private final long bitsPerBuffer;
    private final int k;
    private final long quota;

    A2Core(final MappedWords region, final long bitsPerBuffer, final int k, final long quota)
    {
        this.region = region;
        this.bitsPerBuffer = bitsPerBuffer;
        this.k = k;
        this.quota = quota;
        final long words = wordsPerBuffer(bitsPerBuffer);
        this.buffers = new MappedWords[] {region.slice(STATE_WORDS, words), region.slice(STATE_WORDS + words, words)};
    }

    /**
     * @param bitsPerBuffer b.
     * @return words of one buffer.
     */
    static long wordsPerBuffer(final long bitsPerBuffer)
    {
        return (bitsPerBuffer + 63) >>> 6;
    }

    /**
     * @param bitsPerBuffer b.
     * @return words of the whole region.
     */
    static long regionWords(final long bitsPerBuffer)
    {
        return STATE_WORDS + 2 * wordsPerBuffer(bitsPerBuffer);
    }

    @Override
    public boolean stream(final long hash)
    {
        final long step = Hashes.step(hash);
        while (true)
        {
            final long state = region.getLongVolatile(STATE_WORD);
            if ((state & SWAPPING) != 0)
            {
                Thread.onSpinWait();
                continue;
            }
            final int active = (state & ACTIVE_BIT) != 0 ? 1 : 0;
            if (holds(buffers[active], hash, step))
            {
                return true;
            }
            final boolean duplicate = holds(buffers[1 - active], hash, step);
            final long count = state & COUNT_MASK;
            if (count < quota)
            {
                if (region.compareAndSetLong(STATE_WORD, state, state + 1))
                {
                    insert(buffers[active], hash, step);
                    return duplicate;
                }
            }
            else if (region.compareAndSetLong(STATE_WORD, state, state | SWAPPING))
            {
                buffers[1 - active].clear();
                insert(buffers[1 - active], hash, step);
                region.putLongRelease(STATE_WORD, (active == 0 ? ACTIVE_BIT : 0) | 1);
                return duplicate;
            }
        }
    }

    @Override
    public boolean contains(final long hash)
    {
        final long step = Hashes.step(hash);
        return holds(buffers[0], hash, step) || holds(buffers[1], hash, step);
    }

    @Override
    public void clear()
    {
        region.clear();
    }

    @Override
    public void recover()
    {
        final long state = region.getLongVolatile(STATE_WORD);
        if ((state & SWAPPING) != 0)
        {
            final int active = (state & ACTIVE_BIT) != 0 ? 1 : 0;
            buffers[1 - active].clear();
            region.putLongRelease(STATE_WORD, active == 0 ? ACTIVE_BIT : 0);
        }
    }

    /** @return insertions the active buffer has taken. */
    long activeCount()
    {
        return region.getLongVolatile(STATE_WORD) & COUNT_MASK;
    }

    private boolean holds(final MappedWords buffer, final long hash, final long step)
    {
        for (int i = 0; i < k; i++)
        {
            if (!Bits.get(buffer, Hashes.position(hash, step, i, bitsPerBuffer)))
            {
                return false;
            }
        }
        return true;
    }

    private void insert(final MappedWords buffer, final long hash, final long step)
    {
        for (int i = 0; i < k; i++)
        {
            Bits.set(buffer, Hashes.position(hash, step, i, bitsPerBuffer));
        }
    }
}
