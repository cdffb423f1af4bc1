package io.ddf.ingest.feed;

import io.ddf.engine.scaling.AddResult;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.ChainItems;
import io.ddf.engine.scaling.ScalingFilter;
import io.ddf.ingest.resp.ByteView;
import io.ddf.ingest.session.VerdictRing;
import io.ddf.ingest.session.VerdictRouter;
import io.netty.buffer.ByteBuf;
import org.agrona.DirectBuffer;

/**
 * A feed connection's batches of records into a scaling Bloom chain (what {@code BF.RESERVE} makes, NONSCALING or
 * not): each record hashed where it was read, as BF.ADD and BF.MADD hash the same bytes, then the batch added through
 * the chain's own add ({@link ChainItems#addAll}: its change log records, its growth, the chain's monitor taken once a
 * batch), each verdict written into the connection's ring once its add has returned ({@code U} for BF.ADD's 1,
 * {@code D} for its 0). Inline only: on the connection's event loop, as RESP's BF.MADD adds to a chain.
 */
final class ChainFeed implements ChainItems.Results
{
    private final VerdictRing verdicts;
    private final long[] first = new long[VerdictRouter.MAX_BATCH];
    private final long[] second = new long[VerdictRouter.MAX_BATCH];
    /** A record's bytes where they were read. */
    private final ByteView bytes = new ByteView();
    /** Whether the batch being added met a full NONSCALING chain. */
    private boolean full;
    /** What the touches read: stored, so that the reads are not optimised away (never read). */
    @SuppressWarnings("unused")
    private long touched;

    /** @param verdicts the connection's verdicts (inline). */
    ChainFeed(final VerdictRing verdicts)
    {
        this.verdicts = verdicts;
    }

    /**
     * @param name   the feed's filter.
     * @param filter the scaling filter it names.
     * @param inline whether the feed judges inline.
     * @return why the feed cannot judge into it (the log line's start), or null when it can.
     */
    static String refusal(final String name, final ScalingFilter filter, final boolean inline)
    {
        if (!(filter instanceof BloomChain))
        {
            return "filter '" + name + "' is a cuckoo filter; the raw feed judges into Bloom filters";
        }
        // the pipeline judges fixed-size filters only: a chain is added to on the thread that holds it
        return inline ? null : "filter '" + name + "' is a scaling filter (what BF.RESERVE and BF.ADD make, " +
            "NONSCALING or not), which the raw feed judges inline only: serve --feed-mode inline (or auto on 2 " +
            "cores), or reserve it with KIND fifo-bloom";
    }

    /**
     * Hashes a record into the batch.
     *
     * @param chain  the chain.
     * @param slot   its place in the batch, below {@link VerdictRouter#MAX_BATCH}.
     * @param buffer holds the record (not consumed).
     * @param index  of its first byte.
     * @param length its length, at most the longest record.
     */
    void hash(final BloomChain chain, final int slot, final ByteBuf buffer, final int index, final int length)
    {
        final DirectBuffer view = bytes.of(buffer, index, length);
        final long a = ChainItems.first(chain, view, 0, length);
        first[slot] = a;
        second[slot] = ChainItems.second(chain, view, 0, length, a);
    }

    /**
     * Adds the batch's first {@code count} records in order, their verdicts published to the ring (those before a
     * refused add too, when it throws). Make room in the ring first ({@link VerdictRing#reserve}).
     *
     * @param chain the chain that hashed them.
     * @param count how many.
     * @return false when a NONSCALING chain was full: the records from that one on are not added, and have no
     *     verdict.
     * @throws io.ddf.persistence.log.LogUnavailableException when an add's change log record could not be appended.
     */
    boolean add(final BloomChain chain, final int count)
    {
        full = false;
        try
        {
            touched += ChainItems.addAll(chain, first, second, count, VerdictRing.GROUP, this);
        }
        finally
        {
            verdicts.publishJudged();
        }
        return !full;
    }

    @Override
    public void result(final AddResult result)
    {
        if (result == AddResult.FULL)
        {
            full = true;
            return;
        }
        // NOT_GROWN (no next layer can be made) is BF.ADD's 1, as RedisBloom answers it
        verdicts.judged(result == AddResult.EXISTS);
    }
}
