package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.junit.jupiter.api.Tag;

/**
 * Wide quotient rows (WideQuotientCore: a row of several words updated under the lock bit of its first word) are
 * linearizable under concurrent {@code stream} and {@code contains}. QHT with 2 rows of 9 cells of 8 bits: a row
 * takes two words (7 cells, then 2), so an update that writes both words is what a reader could see half done.
 */
@Tag("lincheck")
public class WideQuotientRowsLinearizabilityTest extends StreamContainsOperations
{
    public WideQuotientRowsLinearizabilityTest()
    {
        super(Filters.builder(FilterKind.QHT).rows(2).buckets(9).fingerprintBits(8));
    }
}
