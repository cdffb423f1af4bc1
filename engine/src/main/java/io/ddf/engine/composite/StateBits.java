package io.ddf.engine.composite;

import io.ddf.engine.memory.MappedWords;

/**
 * Bits of an aged cuckoo filter's state word set or cleared by compare-and-swap: the live stamps and the forgotten
 * stamps' words are shared by the turning thread, the sweep and (for the live word) expiries.
 */
final class StateBits
{
    private StateBits()
    {
    }

    /** Sets {@code bits} in word {@code word}; a write only when one is missing. */
    static void set(final MappedWords state, final int word, final long bits)
    {
        while (true)
        {
            final long current = state.getLongVolatile(word);
            if ((current & bits) == bits || state.compareAndSetLong(word, current, current | bits))
            {
                return;
            }
        }
    }

    /** Clears {@code bits} in word {@code word}; a write only when one is set. */
    static void clear(final MappedWords state, final int word, final long bits)
    {
        while (true)
        {
            final long current = state.getLongVolatile(word);
            if ((current & bits) == 0 || state.compareAndSetLong(word, current, current & ~bits))
            {
                return;
            }
        }
    }
}
