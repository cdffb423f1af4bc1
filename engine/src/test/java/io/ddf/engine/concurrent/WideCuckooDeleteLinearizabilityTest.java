package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.junit.jupiter.api.Tag;

/**
 * {@link CuckooDeleteOperations} on the wide core: 2 buckets of 4 slots of 32 bits, two words a bucket (every write
 * under the table lock); 6 keys.
 */
@Tag("lincheck")
public class WideCuckooDeleteLinearizabilityTest extends CuckooDeleteOperations
{
    public WideCuckooDeleteLinearizabilityTest()
    {
        super(Filters.builder(FilterKind.CUCKOO).memoryBits(256).buckets(4).fingerprintBits(32).param("max-kicks", 3));
    }
}
