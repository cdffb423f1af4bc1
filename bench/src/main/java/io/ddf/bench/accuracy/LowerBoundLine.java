package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.StreamSpec;
import io.ddf.engine.model.LowerBound;

/**
 * Seed 001 Theorem 4 for the harness: the least error rate FPR + FNR any filter of M bits can have after n elements
 * drawn uniformly from the stream's alphabet. Defined only for a uniform stream and n &gt; M.
 */
public final class LowerBoundLine
{
    /** Legend and column name. */
    public static final String LABEL = "lower bound (seed 001 Th. 4)";

    private LowerBoundLine()
    {
    }

    /**
     * @param stream     the stream.
     * @param memoryBits M.
     * @param n          elements streamed.
     * @return the bound on FPR + FNR (a fraction), NaN where Theorem 4 says nothing.
     */
    public static double at(final StreamSpec stream, final long memoryBits, final long n)
    {
        if (stream.type() != StreamSpec.Type.UNIFORM || memoryBits <= 0 || n <= memoryBits)
        {
            return Double.NaN;
        }
        return LowerBound.errorRate(n, memoryBits, stream.alphabet());
    }
}
