package io.ddf.engine.model;

/**
 * What the queuing models need from a subfilter's model: its false positive probability after η insertions and the
 * probability that an element it holds is judged UNSEEN after t further insertions.
 */
public interface SubfilterModel
{
    /**
     * @param insertions η, the insertions the subfilter has taken since it was cleared.
     * @return FP_η, the probability that an unseen element is judged DUPLICATE.
     */
    double falsePositive(long insertions);

    /**
     * @param later t, the insertions that followed the element's (last) insertion into this subfilter.
     * @return the probability that the element is judged UNSEEN.
     */
    double falseNegative(long later);

    /**
     * @param count r.
     * @param x     1 − q (q the weight ratio; 0 for equal weights).
     * @return Σ_{t=0}^{r−1} q^t · falseNegative(t), in closed form where the model has one.
     */
    double weightedFalseNegativeSum(long count, double x);
}
