package io.ddf.engine.internal;

import io.ddf.engine.memory.MappedWords;

/**
 * A filter's mutable words (from its state region to the end of its table: what streaming changes), read and written
 * one at a time for code that replicates a filter word by word; each access is a call its filter's close waits for.
 */
public final class GuardedWords
{
    private final MappedWords words;
    private final CallGuard guard;

    GuardedWords(final MappedWords words, final CallGuard guard)
    {
        this.words = words;
        this.guard = guard;
    }

    /** @return the number of words. */
    public long count()
    {
        guard.checkOpen();
        return words.words();
    }

    /**
     * @param index a word's index.
     * @return the word, read plainly.
     * @throws IllegalStateException when the filter is closed.
     */
    public long get(final long index)
    {
        final Stripe stripe = guard.enter();
        try
        {
            return words.getLongPlain(index);
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /**
     * @param index a word's index.
     * @param value stored plainly.
     * @throws IllegalStateException when the filter is closed.
     */
    public void put(final long index, final long value)
    {
        final Stripe stripe = guard.enter();
        try
        {
            words.putLongPlain(index, value);
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }

    /**
     * @param other another filter's words.
     * @param from  the first index to compare.
     * @return the first index at or after {@code from} where the two differ (a word, or the shorter's end), or -1.
     * @throws IllegalStateException when either filter is closed.
     */
    public long mismatch(final GuardedWords other, final long from)
    {
        final Stripe stripe = guard.enter();
        try
        {
            // a filter against its own words enters once: an overflow thread's call holds one slot of the pool at most
            final Stripe otherStripe = other.guard == guard ? null : other.guard.enter();
            try
            {
                final long common = Math.min(words.words(), other.words.words());
                for (long i = from; i < common; i++)
                {
                    if (words.getLongPlain(i) != other.words.getLongPlain(i))
                    {
                        return i;
                    }
                }
                return words.words() == other.words.words() ? -1 : Math.max(from, common);
            }
            finally
            {
                if (otherStripe != null)
                {
                    CallGuard.exit(otherStripe);
                }
            }
        }
        finally
        {
            CallGuard.exit(stripe);
        }
    }
}
