package io.ddf.engine.concurrent;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import org.junit.jupiter.api.Tag;

/**
 * {@link CuckooDeleteOperations} on the narrow core: 2 buckets of 2 slots of 32 bits, one word each, so an element's
 * two buckets are different words (lock-free inserts; locked add, delete and relocations); 6 keys.
 */
@Tag("lincheck")
public class NarrowCuckooDeleteLinearizabilityTest extends CuckooDeleteOperations
{
    public NarrowCuckooDeleteLinearizabilityTest()
    {
        super(Filters.builder(FilterKind.CUCKOO).memoryBits(128).buckets(2).fingerprintBits(32).param("max-kicks", 3));
    }
}
