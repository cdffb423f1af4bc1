package io.ddf.engine.tune;

/**
 * The stream a filter is tuned for.
 *
 * @param length   n, elements in the stream; 0 for the steady state of an endless stream.
 * @param alphabet U, the distinct elements it draws from; {@link Double#POSITIVE_INFINITY} for an unbounded
 *                 alphabet (no element repeats by chance; duplicates, if any, are then taken as equally likely
 *                 to repeat any earlier position).
 * @param zipf     the Zipf exponent of the draws (rank i with probability ∝ i^−exponent); 0 for uniform.
 * @param window   w, the sliding window duplicates are judged over; 0 for none.
 */
public record Workload(long length, double alphabet, double zipf, long window)
{
    /** Largest alphabet a Zipf law is summed over when none is given (its tail beyond weighs nothing). */
    static final double ZIPF_UNBOUNDED_RANKS = 1e15;

    /**
     * @throws IllegalArgumentException for values out of range.
     */
    public Workload
    {
        check(length >= 0, "stream length must be at least 1 (or 0 for endless), got " + length);
        check(alphabet >= 2, "alphabet must be at least 2, got " + alphabet);
        check(zipf >= 0 && zipf <= 10, "Zipf exponent must be in [0, 10], got " + zipf);
        check(zipf == 0 || Double.isFinite(alphabet) || zipf > 1, "a Zipf law over an unbounded alphabet needs an " +
            "exponent above 1 (below, it does not sum); give --alphabet");
        check(window >= 0, "window must be at least 1 (or 0 for none), got " + window);
        check(window == 0 || zipf == 0, "windowed tuning models uniform streams only (the queuing and short-hash " +
            "models have no Zipf form); drop --zipf or --window");
    }

    /**
     * @param length   n (0: endless).
     * @param alphabet U (infinite: unbounded).
     * @return a uniform stream without a window.
     */
    public static Workload uniform(final long length, final double alphabet)
    {
        return new Workload(length, alphabet, 0, 0);
    }

    /** @return true for a finite stream. */
    public boolean finite()
    {
        return length > 0;
    }

    /** @return true when a window is given. */
    public boolean windowed()
    {
        return window > 0;
    }

    /** @return a one-line description. */
    public String describe()
    {
        final String draws = zipf == 0 ? "uniform" : "Zipf(" + zipf + ")";
        final String over = Double.isInfinite(alphabet) ? "an unbounded alphabet" :
            String.format(java.util.Locale.ROOT, "%.0f elements", alphabet);
        return (finite() ? length + " elements" : "an endless stream") + ", " + draws + " over " + over +
            (windowed() ? ", window " + window : "");
    }

    private static void check(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }
}
