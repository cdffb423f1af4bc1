package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.junit.jupiter.api.Tag;

/**
 * The wide cuckoo layout (WideCuckooCore: every insertion under the table lock, lookups validated by the version)
 * is linearizable under concurrent {@code stream} and {@code contains}. 2 buckets of 4 slots of 32 bits (two words
 * a bucket) and 6 keys: buckets fill, relocations and drops follow.
 */
@Tag("lincheck")
public class WideCuckooLinearizabilityTest extends StreamContainsOperations
{
    public WideCuckooLinearizabilityTest()
    {
        super(Filters.builder(FilterKind.CUCKOO).memoryBits(256).buckets(4).fingerprintBits(32).param("max-kicks", 3));
    }
}
