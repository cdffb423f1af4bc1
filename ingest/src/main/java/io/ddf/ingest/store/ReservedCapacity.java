package io.ddf.ingest.store;

import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.tune.CapacitySizing;
import io.ddf.engine.tune.QuotientSizing;

/** The capacity a fixed-size filter was reserved with, from its parameters: what BF.INFO and the log line say. */
public final class ReservedCapacity
{
    private ReservedCapacity()
    {
    }

    /**
     * @param parameters a fixed-size filter's.
     * @return the capacity it was reserved with, or null when its kind does not record one.
     */
    public static Long of(final FilterParameters parameters)
    {
        final FilterKind kind = parameters.kind();
        if (kind == FilterKind.FIFO_BLOOM || kind == FilterKind.AGED_CUCKOO)
        {
            return parameters.get("capacity");
        }
        if (kind == FilterKind.QHT)
        {
            // a QHT does not record the capacity it was reserved with: the capacity its model says it holds
            return CapacitySizing.promise(parameters, 0).map(p -> (long)p[0]).orElse(0L);
        }
        if (kind == FilterKind.QHTD || kind == FilterKind.QQHTD)
        {
            return QuotientSizing.capacityOf(parameters.get("rows"), parameters.get("buckets"));
        }
        return null;
    }
}
