package io.ddf.engine.window;

import java.util.HashMap;
import java.util.Map;

/**
 * Exact windowed ground truth (seed 001 §2): element e_j is a duplicate over w iff it equals one of the w elements
 * before it. Keeps the last w elements in a ring and their counts in a map, and tallies a filter's verdicts into
 * FPR^w (false positives / unseen elements) and FNR^w (false negatives / duplicates).
 */
final class WindowedTruth
{
    private final long[] ring;
    private final Map<Long, Integer> counts = new HashMap<>();
    private long n;
    private long unseen;
    private long duplicates;
    private long falsePositives;
    private long falseNegatives;

    /**
     * @param window w.
     */
    WindowedTruth(final int window)
    {
        this.ring = new long[window];
    }

    /**
     * Judges the next element against the last w, then slides the window.
     *
     * @param element the element.
     * @return whether it is a duplicate over w.
     */
    boolean next(final long element)
    {
        final boolean duplicate = counts.containsKey(element);
        final int slot = (int)(n % ring.length);
        if (n >= ring.length)
        {
            counts.computeIfPresent(ring[slot], (k, c) -> c == 1 ? null : c - 1);
        }
        ring[slot] = element;
        counts.merge(element, 1, Integer::sum);
        n++;
        return duplicate;
    }

    /**
     * Judges the next element and tallies the filter's verdict on it.
     *
     * @param element        the element.
     * @param judgedDuplicate the filter's verdict.
     * @param count          whether to count it (e.g. only once the window is full).
     * @return the truth.
     */
    boolean record(final long element, final boolean judgedDuplicate, final boolean count)
    {
        final boolean duplicate = next(element);
        if (count)
        {
            if (duplicate)
            {
                duplicates++;
                falseNegatives += judgedDuplicate ? 0 : 1;
            }
            else
            {
                unseen++;
                falsePositives += judgedDuplicate ? 1 : 0;
            }
        }
        return duplicate;
    }

    /** @return FPR^w over the counted elements. */
    double fpr()
    {
        return unseen == 0 ? 0 : (double)falsePositives / unseen;
    }

    /** @return FNR^w over the counted elements. */
    double fnr()
    {
        return duplicates == 0 ? 0 : (double)falseNegatives / duplicates;
    }

    long falsePositives()
    {
        return falsePositives;
    }

    long falseNegatives()
    {
        return falseNegatives;
    }

    long unseen()
    {
        return unseen;
    }

    long duplicates()
    {
        return duplicates;
    }

    @Override
    public String toString()
    {
        return String.format("FPR^w=%.6f (%d/%d) FNR^w=%.6f (%d/%d)", fpr(), falsePositives, unseen, fnr(),
            falseNegatives, duplicates);
    }
}
