package io.ddf.engine.model;

/**
 * A Bloom filter's state after r insertions, where an item is inserted only when it is not a false positive (the
 * items judged new, which is what BF.INFO and the queuing rotation count). The r inserted items are the survivors of
 * x distinct items offered, with dr/dx = 1 − p(x), p(x) = (1 − e^{−Kx/m})^K the Bloom FPR after x items thrown; the
 * blocked ones set no bit (all their bits were set already), so the bits set and the FPR after r insertions are
 * those after x(r) items thrown, not after r: Bloom's formula in r understates both past capacity (m = 40,000,
 * K = 3, 3 × 10^4 offered: 0.48 in r, 0.72 measured; {@code PastCapacityPredictionTest}). x(r) is integrated as
 * dx/dr = 1 / (1 − p(x)) by RK4. Shared by BF.INFO's predictions ({@link LoadPrediction}, {@link FifoBloomModel})
 * and the tuner's fifo-bloom stream model.
 */
public final class InsertedLoad
{
    /** RK4 steps of {@link #offered}: the slope is smooth, so the error is far below the binomial noise. */
    private static final int STEPS = 256;

    private InsertedLoad()
    {
    }

    /**
     * @param bits     m.
     * @param k        K.
     * @param inserted r, items inserted.
     * @return x(r), the distinct items offered for r to be inserted.
     */
    public static double offered(final long bits, final int k, final double inserted)
    {
        if (inserted <= 0)
        {
            return 0;
        }
        final double h = inserted / STEPS;
        double x = 0;
        for (int j = 0; j < STEPS; j++)
        {
            x = step(x, h, bits, k);
        }
        return x;
    }

    /**
     * @param bits     m.
     * @param k        K.
     * @param inserted r.
     * @return the expected FPR after r insertions: {@link FifoBloomModel#bloomFpr} at x(r) items (its exact
     *     occupancy form for small tables, x rounded).
     */
    public static double fpr(final long bits, final int k, final long inserted)
    {
        final double x = offered(bits, k, inserted);
        return (double)k * x * bits > FifoBloomModel.EXACT_WORK ? thrown(x, bits, k) :
            FifoBloomModel.bloomFpr(bits, k, Math.round(x));
    }

    /**
     * @param bits     m.
     * @param k        K.
     * @param inserted r.
     * @return the expected fraction of bits set after r insertions, 1 − e^{−K·x(r)/m}.
     */
    public static double bitsSet(final long bits, final int k, final long inserted)
    {
        return -Math.expm1(-k * offered(bits, k, inserted) / bits);
    }

    /**
     * The FPR after r insertions for r / c on a grid of {@code grid} steps (the tuner interpolates in it along a
     * stream), by the formula at x(r).
     *
     * @param bits         m.
     * @param k            K.
     * @param perSubfilter c.
     * @param grid         steps of the grid.
     * @return grid + 1 rates, entry j at r = j·c / grid.
     */
    public static double[] fprTable(final long bits, final int k, final long perSubfilter, final int grid)
    {
        final double[] table = new double[grid + 1];
        final double h = (double)perSubfilter / grid;
        double x = 0;
        for (int j = 0; j <= grid; j++)
        {
            table[j] = thrown(x, bits, k);
            if (j < grid)
            {
                x = step(x, h, bits, k);
            }
        }
        return table;
    }

    /** One RK4 step of dx/dr = 1 / (1 − p(x)). */
    private static double step(final double x, final double h, final long bits, final int k)
    {
        final double k1 = slope(x, bits, k);
        final double k2 = slope(x + h / 2 * k1, bits, k);
        final double k3 = slope(x + h / 2 * k2, bits, k);
        final double k4 = slope(x + h * k3, bits, k);
        return x + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }

    private static double slope(final double x, final long bits, final int k)
    {
        // bounded: a saturated filter blocks almost every offer, and x then grows without limit
        return 1 / Math.max(1e-9, 1 - thrown(x, bits, k));
    }

    /** Bloom's formula after x items thrown. */
    private static double thrown(final double x, final long bits, final int k)
    {
        return Math.pow(-Math.expm1(-k * x / bits), k);
    }
}
