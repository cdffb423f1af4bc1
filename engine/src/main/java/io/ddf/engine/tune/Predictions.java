package io.ddf.engine.tune;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.model.FifoBloomModel;
import io.ddf.engine.model.LoadPrediction;

import java.util.Optional;

/**
 * Picks the error model for a filter's kind and predicts its fill, FPR and FNR at its current load
 * ({@link LoadPrediction}); BF.INFO shows them. The load is the items judged new, elements − duplicates.
 * Kinds without a model of their state after N distinct insertions (the sampling and stable Bloom filters, SQF,
 * the windowed and queued kinds, cuckoo) get none rather than a guess.
 */
public final class Predictions
{
    private Predictions()
    {
    }

    /**
     * @param filter an open filter.
     * @return the prediction at its current load, or empty when its kind has no model for it.
     */
    public static Optional<LoadPrediction> atCurrentLoad(final DuplicateFilter filter)
    {
        return at(filter.parameters(), filter.elements() - filter.duplicates());
    }

    /**
     * @param parameters a filter's parameters.
     * @param inserted   N, items judged new.
     * @return the prediction, or empty when the kind has no model for it.
     */
    public static Optional<LoadPrediction> at(final FilterParameters parameters, final long inserted)
    {
        try
        {
            return predict(parameters, inserted);
        }
        catch (final IllegalArgumentException e)
        {
            return Optional.empty(); // parameters outside the model's domain (e.g. a QHT of one cell)
        }
    }

    /**
     * @param parameters a fifo-bloom's parameters, either layout.
     * @return its error model.
     */
    static FifoBloomModel fifoBloom(final FilterParameters parameters)
    {
        return FifoBloomModel.of(parameters.get("memory-bits"), (int)parameters.get("hash-functions"),
            parameters.get("capacity"), (int)parameters.get("generations"), (int)parameters.get("blocks-per-item"));
    }

    private static Optional<LoadPrediction> predict(final FilterParameters parameters, final long inserted)
    {
        return switch (parameters.kind())
        {
            case FIFO_BLOOM -> Optional.of(LoadPrediction.fifoBloom(fifoBloom(parameters), inserted));
            case BLOOM -> Optional.of(LoadPrediction.bloom(parameters.get("memory-bits"),
                (int)parameters.get("hash-functions"), inserted));
            case QHT -> Optional.of(LoadPrediction.qht(parameters.get("rows"), (int)parameters.get("buckets"),
                (int)parameters.get("fingerprint-bits"), inserted));
            default -> Optional.empty();
        };
    }
}
