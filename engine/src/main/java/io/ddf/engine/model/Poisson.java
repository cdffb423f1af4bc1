package io.ddf.engine.model;

/** Poisson tail probabilities, for the models that count arrivals into a row or a cell. */
final class Poisson
{
    private Poisson()
    {
    }

    /**
     * @param count a, at least 0.
     * @param mean  the Poisson mean.
     * @return P(Poisson(mean) ≥ a) = P(Gamma(a, 1) ≤ mean), by the finite sum of the first a terms.
     */
    static double atLeast(final int count, final double mean)
    {
        double term = Math.exp(-mean);
        double below = 0;
        for (int i = 0; i < count; i++)
        {
            below += term;
            term *= mean / (i + 1);
        }
        return Math.max(0, 1 - below);
    }
}
