package io.ddf.engine.quotient;

/**
 * Puts a Dynamic SQF's links back together after a crash left an update half made ({@link DynamicSqfCore#recover()}):
 * a bucket unlinked from one row and not yet linked to another, a row half moved in the recency list.
 */
final class DsqfRepair
{
    private DsqfRepair()
    {
    }

    /**
     * Rebuilds after a crash mid-update: cuts chains at a bucket that is unallocated or already reached, returns
     * every allocated but unreachable bucket to the free list, and rebuilds the recency list from the old one as far
     * as it holds together, appending non-empty rows it lost.
     */
    static void repair(final DsqfLinks links)
    {
        final long allocated = Math.min(links.state.getLongPlain(DsqfLinks.ALLOCATED), links.pool);
        links.state.putLongPlain(DsqfLinks.ALLOCATED, allocated);
        final long[] reached = new long[(int)((links.pool + 63) >>> 6)];
        for (long row = 0; row < links.rows; row++)
        {
            long previous = -1;
            long bucket = links.head(row) - 1;
            while (bucket >= 0)
            {
                if (bucket >= allocated || (reached[(int)(bucket >>> 6)] & (1L << bucket)) != 0)
                {
                    if (previous < 0)
                    {
                        links.setHead(row, 0);
                    }
                    else
                    {
                        links.setNext(previous, 0);
                    }
                    break;
                }
                reached[(int)(bucket >>> 6)] |= 1L << bucket;
                previous = bucket;
                bucket = links.next(bucket) - 1;
            }
        }
        long free = 0;
        for (long bucket = allocated - 1; bucket >= 0; bucket--)
        {
            if ((reached[(int)(bucket >>> 6)] & (1L << bucket)) == 0)
            {
                links.setNext(bucket, free);
                free = bucket + 1;
            }
        }
        links.state.putLongPlain(DsqfLinks.FREE, free);
        final long[] listed = new long[(int)((links.rows + 63) >>> 6)];
        long current = links.state.getLongPlain(DsqfLinks.OLDEST);
        links.state.putLongPlain(DsqfLinks.OLDEST, 0);
        links.state.putLongPlain(DsqfLinks.NEWEST, 0);
        for (long steps = 0; current != 0 && current <= links.rows && steps < links.rows; steps++)
        {
            final long row = current - 1;
            current = links.newer(row);
            if (links.head(row) != 0 && (listed[(int)(row >>> 6)] & (1L << row)) == 0)
            {
                listed[(int)(row >>> 6)] |= 1L << row;
                links.append(row);
            }
        }
        for (long row = 0; row < links.rows; row++)
        {
            if ((listed[(int)(row >>> 6)] & (1L << row)) == 0)
            {
                if (links.head(row) != 0)
                {
                    links.append(row);
                }
                else
                {
                    links.setOlder(row, 0);
                    links.setNewer(row, 0);
                }
            }
        }
    }
}
