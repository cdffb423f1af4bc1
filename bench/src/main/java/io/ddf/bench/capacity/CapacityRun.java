package io.ddf.bench.capacity;

import io.ddf.engine.hash.Mix;

import java.util.ArrayList;
import java.util.List;

/**
 * Adds distinct items to a candidate and, at each checkpoint (items added so far), measures: the false positive
 * rate over never-added probes, the fraction of all added items that answer "absent", of the oldest {@code capacity}
 * and of the newest capacity/2, and the memory. Item i is mix64(seed + i) (a bijection, so all distinct); probe p is
 * mix64(seed + 2^62 + p), never an item.
 */
final class CapacityRun
{
    /** Figures at one checkpoint. */
    record Point(long added, double fpr, double fnr, double oldestAbsent, double newestAbsent, long bytes)
    {
    }

    private CapacityRun()
    {
    }

    static long item(final long seed, final long i)
    {
        return Mix.mix64(seed + i);
    }

    private static long probe(final long seed, final long p)
    {
        return Mix.mix64(seed + (1L << 62) + p);
    }

    /**
     * @param candidate   the filter, empty.
     * @param capacity    n, for the oldest and newest windows.
     * @param checkpoints item counts to measure at, increasing.
     * @param probes      never-added probes per checkpoint.
     * @param seed        the items' seed.
     * @return one point per checkpoint.
     */
    static List<Point> run(final Candidate candidate, final long capacity, final long[] checkpoints,
        final long probes, final long seed)
    {
        final List<Point> points = new ArrayList<>();
        long added = 0;
        for (final long checkpoint : checkpoints)
        {
            for (; added < checkpoint; added++)
            {
                candidate.add(item(seed, added));
            }
            long falsePositives = 0;
            for (long p = 0; p < probes; p++)
            {
                falsePositives += candidate.contains(probe(seed, p)) ? 1 : 0;
            }
            long absent = 0;
            long oldestAbsent = 0;
            long newestAbsent = 0;
            final long oldest = Math.min(added, capacity);
            final long newestFrom = Math.max(0, added - capacity / 2);
            for (long i = 0; i < added; i++)
            {
                if (!candidate.contains(item(seed, i)))
                {
                    absent++;
                    oldestAbsent += i < oldest ? 1 : 0;
                    newestAbsent += i >= newestFrom ? 1 : 0;
                }
            }
            points.add(new Point(added, (double)falsePositives / probes, added == 0 ? 0 : (double)absent / added,
                oldest == 0 ? 0 : (double)oldestAbsent / oldest,
                added == newestFrom ? 0 : (double)newestAbsent / (added - newestFrom), candidate.bytes()));
        }
        return points;
    }
}
