package io.ddf.engine.scaling;

import io.ddf.engine.changelog.KindOps;
import io.ddf.persistence.platform.RawMemory;
import io.ddf.persistence.log.LogReader;

/**
 * Replays a RedisBloom cuckoo filter's physical records (FORMAT-LOG.md: CF_SLOT, CF_COUNTERS, CF_GROW, CF_SHRINK) in
 * the filter's own order: every slot changed since the checkpoint ends as the uncut filter left it, whatever page of
 * the file the power cut kept from when.
 */
final class CuckooReplay
{
    private CuckooReplay()
    {
    }

    /**
     * @param filter the filter, its monitor held.
     * @param frame  the reader at one of its records.
     */
    static void replay(final RedisCuckoo filter, final LogReader frame)
    {
        switch (frame.op())
        {
            case KindOps.CF_SLOT ->
            {
                final int layer = frame.aux() & 0x3FF;
                checkLayer(filter, layer, frame);
                final long bytes = filter.filterBytes()[layer];
                if (frame.hash() < 0 || frame.hash() >= bytes)
                {
                    throw new IllegalStateException(filter.path() + ": the log's record at position " +
                        frame.position() + " sets byte " + frame.hash() + " of sub-filter " + layer + ", which has " +
                        bytes);
                }
                RawMemory.putBytePlain(filter.dataAddress(layer, frame.hash()), (byte)(frame.aux() >>> 10));
            }
            case KindOps.CF_COUNTERS ->
            {
                filter.file.counter(RedisCuckoo.ITEMS, frame.hash());
                filter.file.counter(RedisCuckoo.DELETES, frame.arg());
            }
            case KindOps.CF_GROW ->
            {
                if (frame.aux() == filter.filters())
                {
                    filter.appendSubFilter(frame.hash());
                }
                checkLayer(filter, frame.aux(), frame);
            }
            case KindOps.CF_SHRINK ->
            {
                while (filter.filters() > frame.aux() && filter.filters() > 1)
                {
                    filter.removeNewest();
                }
            }
            default -> throw new IllegalStateException(filter.path() + ": record op " + frame.op() + " at log position " +
                frame.position() + " is not one a cuckoo filter writes");
        }
    }

    private static void checkLayer(final RedisCuckoo filter, final int layer, final LogReader frame)
    {
        if (layer >= filter.filters())
        {
            throw new IllegalStateException(filter.path() + ": the log's record at position " + frame.position() +
                " names sub-filter " + layer + " but the file has " + filter.filters());
        }
    }
}
