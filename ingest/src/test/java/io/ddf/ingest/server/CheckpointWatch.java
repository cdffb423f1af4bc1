package io.ddf.ingest.server;

import java.io.IOException;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The moment a power-cut test cuts at, watched through {@code INFO persistence} and {@code BF.INFO} on a connection of
 * its own: while a checkpoint is in progress ({@code aof_rewrite_in_progress:1}), or once one has finished since the
 * watch began and the default chain has grown past it, with none in progress.
 * <p>
 * The growth is the test's load's (the watch adding items itself was tried: on CI's loaded machine, where writes
 * crawled on the power-cut file system while checkpoints forced the files, its 200 adds waited 30 s for their
 * replies once). A watch that finds neither moment in its time returns null: the caller cuts anyway and says so.
 */
final class CheckpointWatch
{
    private final RespClient client;
    private final String chain;
    private final LongSupplier sent;
    private final StringBuilder seen = new StringBuilder();
    private final long from = System.currentTimeMillis();
    private String last = "";

    /**
     * @param chain the scaling chain's key
     * @param sent  the load's progress, noted with each change the watch sees (a stalled load tells itself apart from
     *              slow checkpoints in a failure's message)
     */
    CheckpointWatch(final RespClient client, final String chain, final LongSupplier sent)
    {
        this.client = client;
        this.chain = chain;
        this.sent = sent;
    }

    /**
     * "during" or "grew", or null when neither came within {@code watchMs}. When {@code during}, only a checkpoint in
     * progress is watched for in the first half of the time.
     */
    String await(final boolean during, final long watchMs) throws IOException
    {
        final long start = checkpoints(info());
        final long end = from + watchMs;
        long checkpoints = start;
        long layers = Long.MAX_VALUE;
        while (System.currentTimeMillis() < end)
        {
            final String info = info();
            final long now = checkpoints(info);
            note(info);
            if (during && running(info))
            {
                return "during";
            }
            if (now != checkpoints)
            {
                // a checkpoint finished: the chain's layers now are at least those it wrote
                checkpoints = now;
                layers = layers();
            }
            else if (!running(info) && (!during || System.currentTimeMillis() > end - watchMs / 2) &&
                layers() > layers)
            {
                return "grew";
            }
        }
        return null;
    }

    /** Each state the watch saw, with when. */
    String seen()
    {
        return seen.toString();
    }

    private void note(final String info) throws IOException
    {
        final String state = checkpoints(info) + (running(info) ? " (1 running)" : "") + " checkpoints, " + layers() +
            " layers, " + sent.getAsLong() + " sent";
        if (!state.equals(last))
        {
            seen.append("\n  ").append(System.currentTimeMillis() - from).append(" ms: ").append(state);
            last = state;
        }
    }

    private String info() throws IOException
    {
        return (String)client.call("INFO", "persistence");
    }

    private long layers() throws IOException
    {
        final List<?> info = (List<?>)client.call("BF.INFO", chain);
        return (Long)info.get(info.indexOf("Number of filters") + 1);
    }

    private static boolean running(final String info)
    {
        return info.contains("aof_rewrite_in_progress:1");
    }

    private static long checkpoints(final String info)
    {
        return info.lines().filter(l -> l.startsWith("ddf_checkpoints:")).mapToLong(l -> Long.parseLong(l.substring(
            "ddf_checkpoints:".length()).trim())).findFirst().orElseThrow(() -> new AssertionError(info));
    }
}
