package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.junit.jupiter.api.Tag;

/**
 * Narrow quotient rows (NarrowQuotientCore: one compare-and-swap per row update) are linearizable: concurrent
 * {@code stream} and {@code contains} give results some sequential order of the same operations on the same filter
 * gives. The filter is tiny so that operations collide: QHT with 2 rows of 2 cells of 4 bits (both rows in one
 * word, so even different rows contend for the CAS), 6 keys (evictions, and fingerprint collisions).
 */
@Tag("lincheck")
public class NarrowQuotientRowsLinearizabilityTest extends StreamContainsOperations
{
    public NarrowQuotientRowsLinearizabilityTest()
    {
        super(Filters.builder(FilterKind.QHT).rows(2).buckets(2).fingerprintBits(4));
    }
}
