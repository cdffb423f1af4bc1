package io.ddf.ingest.store;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;

/**
 * How many filters the daemon may hold open: each holds one file descriptor (the one its lock lives on; closing
 * any descriptor of a file drops the process's lock on it, so the descriptor cannot be closed while the mapping
 * lives), and when descriptors run out the daemon cannot accept connections either (issue 13: under
 * {@code ulimit -n 512}, 492 filters, then no connection accepted until restart).
 */
public final class FilterBudget
{
    /** Descriptors kept for the JVM itself: jars, the event loops' epoll and pipes, the data directory's lock. */
    static final int JVM_RESERVE = 64;

    private FilterBudget()
    {
    }

    /**
     * The default of {@code --max-filters}: the descriptor limit, less a quarter of it (at most
     * {@code maxClients}) kept for connections, less {@link #JVM_RESERVE}.
     *
     * @param descriptorLimit the process's descriptor limit, or -1 when unknown.
     * @param maxClients      {@code --max-clients}.
     * @return the default cap; {@link Integer#MAX_VALUE} when the limit is unknown.
     */
    public static int defaultMaxFilters(final long descriptorLimit, final int maxClients)
    {
        if (descriptorLimit <= 0)
        {
            return Integer.MAX_VALUE;
        }
        final long forConnections = Math.min(maxClients, descriptorLimit / 4);
        return (int)Math.max(1, Math.min(Integer.MAX_VALUE, descriptorLimit - forConnections - JVM_RESERVE));
    }

    /** @return this process's descriptor limit (RLIMIT_NOFILE as the JVM raised it), or -1 when unknown. */
    public static long descriptorLimit()
    {
        final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean)
        {
            return ((com.sun.management.UnixOperatingSystemMXBean)os).getMaxFileDescriptorCount();
        }
        return -1;
    }

    /**
     * @param maxFilters the cap reached.
     * @return why a filter was not made, naming the limit and how to raise it.
     */
    static String limitReached(final int maxFilters)
    {
        return "filter limit reached: this daemon holds at most " + maxFilters + " filters " +
            "(--max-filters; each open filter holds a file descriptor, two with --live-dir, and the descriptor " +
            "limit is " + descriptorLimit() + "); DEL unused filters, or restart with a higher --max-filters and, " +
            "if need be, a higher descriptor limit (ulimit -n)";
    }
}
