package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.junit.jupiter.api.Tag;

/**
 * The DSQF pool (DynamicSqfCore: one writer lock over the rows, the shared bucket pool and the recency list, taken
 * by {@code stream} and {@code contains}) is linearizable. 2 rows over a pool smaller than the keys: hard
 * collisions unlink buckets from the least recently used row and reuse them.
 */
@Tag("lincheck")
public class DsqfPoolLinearizabilityTest extends StreamContainsOperations
{
    public DsqfPoolLinearizabilityTest()
    {
        super(Filters.builder(FilterKind.DSQF).rows(2).buckets(1).remainderBits(8).reducedBits(4));
    }
}
