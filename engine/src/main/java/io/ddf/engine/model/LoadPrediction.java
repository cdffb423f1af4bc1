package io.ddf.engine.model;

/**
 * What the error models predict for a filter at its current load: after N items judged new (inserted), how full it
 * is, the probability that an item never added answers "present" (FPR), and the fraction of the N added items
 * that answer "absent" (FNR: forgotten, or evicted). Each factory names the model it uses.
 *
 * @param inserted N.
 * @param fill     the fraction of the filter's room in use, in [0, 1] (its meaning per kind is on the factory).
 * @param fpr      predicted false positive rate now.
 * @param fnr      predicted fraction of the added items that answer "absent" now.
 *
 * <p>The QHT paper: R. Géraud, M. Lombard-Platet and D. Naccache, "Quotient Hash Tables: Efficiently Detecting
 * Duplicates in Streaming Data", ACM SAC 2019.
 */
public record LoadPrediction(long inserted, double fill, double fpr, double fnr)
{
    /**
     * The capacity filter ({@link FifoBloomModel}, the offered-count form of {@link InsertedLoad}): fill = items held
     * / (L·c).
     *
     * @param model    its model.
     * @param inserted N.
     * @return the prediction.
     */
    public static LoadPrediction fifoBloom(final FifoBloomModel model, final long inserted)
    {
        return new LoadPrediction(inserted, model.fill(inserted), model.falsePositiveRate(inserted),
            model.falseNegativeRate(inserted));
    }

    /**
     * A plain Bloom filter of m bits and K hash functions after N insertions (items judged new; a false positive is
     * not inserted and sets no bit): fill = the expected fraction of bits set, 1 − e^{−K·x/m}, FPR =
     * {@link FifoBloomModel#bloomFpr} at x, x = x(N) the distinct items offered ({@link InsertedLoad}); no false
     * negatives. Bloom's formula in N itself said 0.33 where 0.44 was measured at 3 × capacity.
     *
     * @param bits     m.
     * @param k        K.
     * @param inserted N.
     * @return the prediction.
     */
    public static LoadPrediction bloom(final long bits, final int k, final long inserted)
    {
        return new LoadPrediction(inserted, InsertedLoad.bitsSet(bits, k, inserted), InsertedLoad.fpr(bits, k, inserted),
            0);
    }

    /**
     * A QHT of N rows, k cells and S = 2^s − 1 fingerprints after x distinct insertions into a fresh table, by
     * occupancy: a row receives J ~ Poisson(λ = x/N) of them; it keeps min(J, k) and the J − k beyond that were
     * evicted (a full row evicts one of its k for each newcomer, so the survivors are k of the J). FNR =
     * E[(J − k)^+] / λ, fill = E[min(J, k)] / k, FPR = 1 − E[(1 − 1/S)^{min(J, k)}] (a probe matches one of the
     * row's fingerprints). QHT paper Th. 4.1/4.2 ({@link QhtModel}) assume every row full, which holds after many
     * times Nk insertions, not at a capacity of Nk/2: at x = 10^4, N = 5,000, k = 4 Th. 4.2 gives 21 % forgotten,
     * this 3.8 %, and a measurement 3.9 % ({@code LoadPredictionTest}). Fingerprint collisions among the row's
     * items (false duplicates, which are not inserted) are neglected: they are rarer than k/S.
     *
     * @param rows            N.
     * @param buckets         k.
     * @param fingerprintBits s.
     * @param inserted        x.
     * @return the prediction.
     */
    public static LoadPrediction qht(final long rows, final int buckets, final int fingerprintBits,
        final long inserted)
    {
        final double lambda = (double)inserted / rows;
        final double miss = 1 - 1 / (Math.pow(2, fingerprintBits) - 1);
        double p = Math.exp(-lambda);
        double mass = 0;
        double held = 0;
        double noMatch = 0;
        for (int j = 0; j < buckets; j++)
        {
            held += j * p;
            noMatch += Math.pow(miss, j) * p;
            mass += p;
            p *= lambda / (j + 1);
        }
        final double tail = Math.max(0, 1 - mass);
        held += buckets * tail;
        noMatch += Math.pow(miss, buckets) * tail;
        final double evicted = lambda - held;
        return new LoadPrediction(inserted, held / buckets, 1 - noMatch,
            inserted == 0 ? 0 : Math.max(0, evicted) / lambda);
    }
}
