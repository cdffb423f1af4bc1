package io.ddf.bench.accuracy;

import io.ddf.engine.model.QhtModel;
import io.ddf.engine.model.QueuingModel;

/**
 * The number of subfilters L that minimises the predicted windowed error FPR^w + FNR^w of a queued QHT, from the
 * engine's steady-state model of the queuing construction ({@link QueuingModel}, seed 001 §5), searched over the L
 * that divide the window (the engine needs w = c·L). This is the search {@code ddf tune} runs for a window, with
 * the subfilter shape fixed instead of searched.
 */
public final class QueuedOptimum
{
    /** Larger L leave subfilters of a handful of rows; the optimum is far below (seed 001 Fig. 6). */
    private static final long MAX_SUBFILTERS = 1000;

    private QueuedOptimum()
    {
    }

    /**
     * @param memoryBits      M, split evenly among the subfilters.
     * @param window          w.
     * @param alphabet        U of the uniform stream.
     * @param buckets         k of each QHT subfilter.
     * @param fingerprintBits s of each QHT subfilter.
     * @return the best L, and its predicted FPR^w and FNR^w, as {L, FPR, FNR}.
     */
    public static double[] bestSubfilters(final long memoryBits, final long window, final double alphabet,
        final int buckets, final int fingerprintBits)
    {
        double[] best = null;
        for (long l = 1; l <= Math.min(window, MAX_SUBFILTERS); l++)
        {
            if (window % l != 0 || memoryBits / l / ((long)buckets * fingerprintBits) < 1)
            {
                continue;
            }
            final QueuingModel model = new QueuingModel(QhtModel.forMemory(memoryBits / l, buckets, fingerprintBits),
                l, window / l, alphabet);
            final double fpr = model.falsePositiveRate();
            final double fnr = model.falseNegativeRate();
            if (best == null || fpr + fnr < best[1] + best[2])
            {
                best = new double[] {l, fpr, fnr};
            }
        }
        if (best == null)
        {
            throw new IllegalArgumentException("no queued QHT of " + memoryBits + " bits fits window " + window);
        }
        return best;
    }
}
