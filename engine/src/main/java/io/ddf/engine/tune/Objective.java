package io.ddf.engine.tune;

import java.util.Locale;

/**
 * What the user pays for errors: a weighted sum of the rates to minimise, optionally under caps.
 *
 * @param fprWeight cost of the false positive rate (an ad-click gateway pays for false positives).
 * @param fnrWeight cost of the false negative rate (a trading gateway pays for false negatives).
 * @param targetFpr largest acceptable FPR, or NaN for none.
 * @param targetFnr largest acceptable FNR, or NaN for none.
 */
public record Objective(double fprWeight, double fnrWeight, double targetFpr, double targetFnr)
{
    /** The papers' error rate, FPR + FNR, without caps. */
    public static final Objective ERROR_RATE = new Objective(1, 1, Double.NaN, Double.NaN);

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
        final boolean inA = admits(a.fpr(), a.fnr());
        final boolean inB = admits(b.fpr(), b.fnr());
        if (inA != inB)
        {
            return inA ? -1 : 1;
        }
        final int byCost = Double.compare(cost(a.fpr(), a.fnr()), cost(b.fpr(), b.fnr()));
        return byCost != 0 ? byCost : Double.compare(a.fpr() + a.fnr(), b.fpr() + b.fnr());
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
        return s.toString();
    }

    private static String trim(final double v)
    {
        return String.format(Locale.ROOT, "%.6g", v).replaceAll("\\.?0+$", "").replaceAll("\\.?0+e", "e");
    }
}
