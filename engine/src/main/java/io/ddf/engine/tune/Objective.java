package io.ddf.engine.tune;

import java.util.Locale;

/**
 * What the user pays for errors: a weighted sum of the rates to minimise, optionally under caps; and, for a filter
 * replicated through a Kafka Streams changelog, a cap on what its changelog costs ({@link ChangelogCost}).
 *
 * @param fprWeight      cost of the false positive rate (an ad-click gateway pays for false positives).
 * @param fnrWeight      cost of the false negative rate (a trading gateway pays for false negatives).
 * @param targetFpr      largest acceptable FPR, or NaN for none.
 * @param targetFnr      largest acceptable FNR, or NaN for none.
 * @param changelogBytes largest acceptable changelog bytes per new element (and at most one record per new
 *                       element: what an exact store's changelog costs), or NaN when the filter has no changelog.
 *                       Among filters of equal cost, the one whose restore reads less comes first.
 */
public record Objective(double fprWeight, double fnrWeight, double targetFpr, double targetFnr, double changelogBytes)
{
    /** The papers' error rate, FPR + FNR, without caps. */
    public static final Objective ERROR_RATE = new Objective(1, 1, Double.NaN, Double.NaN);

    /**
     * An objective without a changelog.
     *
     * @param fprWeight cost of the false positive rate.
     * @param fnrWeight cost of the false negative rate.
     * @param targetFpr largest acceptable FPR, or NaN for none.
     * @param targetFnr largest acceptable FNR, or NaN for none.
     */
    public Objective(final double fprWeight, final double fnrWeight, final double targetFpr, final double targetFnr)
    {
        this(fprWeight, fnrWeight, targetFpr, targetFnr, Double.NaN);
    }

    /**
     * @throws IllegalArgumentException for negative weights, both zero, or caps outside (0, 1].
     */
    public Objective
    {
        if (!(fprWeight >= 0 && fnrWeight >= 0 && fprWeight + fnrWeight > 0) || Double.isInfinite(fprWeight + fnrWeight))
        {
            throw new IllegalArgumentException("weights must be finite, at least 0, not both 0, got --fpr-weight " +
                fprWeight + " --fnr-weight " + fnrWeight);
        }
        if (!Double.isNaN(targetFpr) && !(targetFpr > 0 && targetFpr <= 1))
        {
            throw new IllegalArgumentException("--target-fpr must be in (0, 1], got " + targetFpr);
        }
        if (!Double.isNaN(targetFnr) && !(targetFnr > 0 && targetFnr <= 1))
        {
            throw new IllegalArgumentException("--target-fnr must be in (0, 1], got " + targetFnr);
        }
        if (!Double.isNaN(changelogBytes) && !(changelogBytes > 0 && Double.isFinite(changelogBytes)))
        {
            throw new IllegalArgumentException("--changelog must be a positive number of bytes per new element, got " +
                changelogBytes);
        }
    }

    /**
     * @param fprWeight cost of the false positive rate.
     * @param fnrWeight cost of the false negative rate.
     * @param targetFpr largest acceptable FPR, or NaN for none.
     * @param targetFnr largest acceptable FNR, or NaN for none.
     * @return that objective for a filter replicated through a changelog, whose changelog may cost at most an exact
     *         store's ({@link ChangelogCost#EXACT_STORE_RECORD_BYTES} and one record per new element).
     */
    public static Objective withChangelog(final double fprWeight, final double fnrWeight, final double targetFpr,
        final double targetFnr)
    {
        return new Objective(fprWeight, fnrWeight, targetFpr, targetFnr, ChangelogCost.EXACT_STORE_RECORD_BYTES);
    }

    /** @return whether the objective weighs a changelog. */
    public boolean changelog()
    {
        return !Double.isNaN(changelogBytes);
    }

    /**
     * @param fpr a predicted FPR.
     * @param fnr a predicted FNR.
     * @return the cost fprWeight·FPR + fnrWeight·FNR.
     */
    public double cost(final double fpr, final double fnr)
    {
        return fprWeight * fpr + fnrWeight * fnr;
    }

    /**
     * @param fpr a predicted FPR.
     * @param fnr a predicted FNR.
     * @return true when both are within their caps.
     */
    public boolean admits(final double fpr, final double fnr)
    {
        return !(fpr > targetFpr) && !(fnr > targetFnr); // NaN caps admit everything
    }

    /**
     * @param a a candidate.
     * @param b another.
     * @return negative when a is better: admitted before not admitted, then the lower cost, then the lower total.
     */
    int compare(final Candidate a, final Candidate b)
    {
        return compare(a, b, null);
    }

    /**
     * @param a         a candidate.
     * @param b         another.
     * @param changelog each candidate's changelog cost, or null when the objective weighs none.
     * @return negative when a is better: admitted (caps, changelog included) before not admitted, then the lower
     *         cost, then the lower total, then the smaller restore.
     */
    int compare(final Candidate a, final Candidate b, final java.util.function.Function<Candidate, ChangelogCost> changelog)
    {
        final boolean inA = admits(a.fpr(), a.fnr()) && (changelog == null || changelog.apply(a).within(changelogBytes));
        final boolean inB = admits(b.fpr(), b.fnr()) && (changelog == null || changelog.apply(b).within(changelogBytes));
        if (inA != inB)
        {
            return inA ? -1 : 1;
        }
        final int byCost = Double.compare(cost(a.fpr(), a.fnr()), cost(b.fpr(), b.fnr()));
        if (byCost != 0 || changelog == null)
        {
            return byCost != 0 ? byCost : Double.compare(a.fpr() + a.fnr(), b.fpr() + b.fnr());
        }
        final int byTotal = Double.compare(a.fpr() + a.fnr(), b.fpr() + b.fnr());
        return byTotal != 0 ? byTotal : Double.compare(changelog.apply(a).restoreBytes(), changelog.apply(b).restoreBytes());
    }

    /** @return a one-line description. */
    public String describe()
    {
        final StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "minimise %s·FPR + %s·FNR",
            trim(fprWeight), trim(fnrWeight)));
        if (!Double.isNaN(targetFpr))
        {
            s.append(", FPR <= ").append(trim(targetFpr));
        }
        if (!Double.isNaN(targetFnr))
        {
            s.append(", FNR <= ").append(trim(targetFnr));
        }
        if (changelog())
        {
            s.append(", changelog <= ").append(trim(changelogBytes)).append(" bytes and one record per new element");
        }
        return s.toString();
    }

    private static String trim(final double v)
    {
        return String.format(Locale.ROOT, "%.6g", v).replaceAll("\\.?0+$", "").replaceAll("\\.?0+e", "e");
    }
}
