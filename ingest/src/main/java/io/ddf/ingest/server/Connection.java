package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;
import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.engine.Operation;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A client connection whose elements are judged either through the pipeline, their verdicts coming back, in
 * publication order, from the router's thread, or on the connection's own event loop ({@link InlineExecution}),
 * as {@code serve --execution} says; {@link #submit} is the one place that chooses. Either way the verdicts are
 * read in the same order from the same ring, so the replies take one path.
 *
 * <p>Verdicts land in a small ring of bytes (one writer, the router's thread or, inline, the event loop itself; one
 * reader, the event loop), and through the pipeline one wake-up task at a time is scheduled on the event loop to
 * consume them. The event loop never has more elements outstanding (submitted, verdict not yet consumed) than the
 * ring holds: {@link #reserve} consumes, and if need be waits for the pipeline, first.
 */
abstract class Connection extends ChannelDuplexHandler
{
    /** Verdicts a connection may have outstanding. */
    static final int RING = 4096;
    /**
     * Without a wake-up task for every verdict, still one at least every this many, so a feed that never stops
     * publishing gets its verdicts (and the event loop room in the ring) long before the ring is full.
     */
    static final int WAKE_EVERY = RING / 8;
    private static final VarHandle DELIVERED;
    private static final VarHandle PUBLISHED;

    static
    {
        try
        {
            DELIVERED = MethodHandles.lookup().findVarHandle(Connection.class, "delivered", long.class);
            PUBLISHED = MethodHandles.lookup().findVarHandle(Connection.class, "published", long.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final byte[] ring = new byte[RING];
    private final FilterPipeline pipeline;
    /** An element's bytes where the decoder left them ({@link #bytesOf}), so no bytes are copied twice. */
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    /** Holds an element of a buffer that is neither on the heap nor direct (composite). */
    private final byte[] scratch;
    /** Whether elements are judged on the event loop ({@link InlineExecution}) rather than through the pipeline. */
    private final boolean inline;
    private final AtomicBoolean wakeScheduled = new AtomicBoolean();
    private final Runnable wake = this::wake;
    @SuppressWarnings("unused")
    private volatile long delivered;
    /** Verdicts written into the ring: by the router's thread, or (inline) by the event loop itself. */
    private long deliveredByRouter;
    /** Verdicts consumed, on the event loop. */
    private long consumed;
    /** Elements published: written by the event loop (release), read by the router's thread (acquire). */
    @SuppressWarnings("unused")
    private volatile long published;
    /** The connection's tag, set on registration. */
    private long tag = -1;
    /** Set once the channel is active. */
    ChannelHandlerContext ctx;

    /**
     * @param pipeline        judges the elements, unless {@code execution} is inline.
     * @param maxElementBytes the longest element submitted.
     * @param execution       where the elements are judged.
     */
    Connection(final FilterPipeline pipeline, final int maxElementBytes, final ServerConfig.Execution execution)
    {
        this.pipeline = pipeline;
        this.scratch = new byte[maxElementBytes];
        this.inline = execution == ServerConfig.Execution.INLINE;
    }

    /** @return the tag verdicts come back with. */
    final long tag()
    {
        return tag;
    }

    /** @param tag the tag the router gave. */
    final void tag(final long tag)
    {
        this.tag = tag;
    }

    /**
     * Called by the router's thread, in publication order. Wakes the event loop only once the verdict is the last
     * one outstanding (the client's pipelined batch is judged, so its replies go out in one write) or every
     * {@link #WAKE_EVERY} verdicts: not once per element. No wake-up is lost: the event loop publishes (release)
     * before the element can be judged, so the delivery of the last element published sees it as last.
     *
     * @param verdict the next verdict.
     */
    final void deliver(final Verdict verdict)
    {
        final long d = deliveredByRouter;
        ring[(int)(d & (RING - 1))] = verdict == Verdict.DUPLICATE ? (byte)1 : (byte)0;
        deliveredByRouter = d + 1;
        DELIVERED.setRelease(this, d + 1);
        if ((d + 1 == (long)PUBLISHED.getAcquire(this) || (d + 1) % WAKE_EVERY == 0) &&
            !wakeScheduled.get() && wakeScheduled.compareAndSet(false, true))
        {
            final ChannelHandlerContext context = ctx;
            if (context != null)
            {
                context.executor().execute(wake);
            }
        }
    }

    private void wake()
    {
        wakeScheduled.set(false);
        onVerdicts();
    }

    /** @return verdicts delivered and not yet consumed (event loop). */
    final int available()
    {
        return (int)((long)DELIVERED.getAcquire(this) - consumed);
    }

    /**
     * Consumes the next verdict; call only when {@link #available()} is positive.
     *
     * @return true for DUPLICATE.
     */
    final boolean next()
    {
        return ring[(int)(consumed++ & (RING - 1))] != 0;
    }

    /** @return elements published whose verdicts are not consumed yet. */
    final long outstanding()
    {
        return publishedByLoop() - consumed;
    }

    /**
     * @return elements submitted whose verdicts have not arrived yet (event loop); 0 once every one is judged and
     *     the filters' counts include it.
     */
    final long unjudged()
    {
        return publishedByLoop() - (long)DELIVERED.getAcquire(this);
    }

    /** @return elements published (event loop: its own plain read). */
    private long publishedByLoop()
    {
        return (long)PUBLISHED.get(this);
    }

    /**
     * Makes room for {@code count} more outstanding elements (at most {@link #RING}): consumes verdicts, waiting
     * for the pipeline when the ring is full. Then count them as published.
     *
     * @param count elements about to be published.
     */
    final void reserve(final int count)
    {
        while (publishedByLoop() - consumed + count > RING)
        {
            final long before = consumed;
            onVerdicts();
            if (consumed == before)
            {
                Thread.yield();
            }
        }
    }

    /**
     * Judges one element, inline or through the pipeline: its verdict is then (inline) or later the next one
     * {@link #next} reads after those of the elements submitted before. Call holding the filter's lease.
     *
     * @param filter    the filter.
     * @param operation stream or contains.
     * @param item      the element's bytes, at most the longest element long (not consumed).
     */
    final void submit(final DuplicateFilter filter, final Operation operation, final ByteBuf item)
    {
        reserve(1);
        if (!inline)
        {
            publishItem(filter, operation, item);
            return;
        }
        final boolean duplicate = InlineExecution.duplicate(filter, operation, bytesOf(item), item.readableBytes());
        // the row is in the mapping now; only then is the verdict one that a reply may carry
        final long d = deliveredByRouter;
        ring[(int)(d & (RING - 1))] = duplicate ? (byte)1 : (byte)0;
        deliveredByRouter = d + 1;
        PUBLISHED.setRelease(this, publishedByLoop() + 1);
        DELIVERED.setRelease(this, d + 1);
    }

    /**
     * Publishes one element into the pipeline, its verdict to come back to this connection: make room first
     * ({@link #reserve}), hold the filter's lease meanwhile.
     *
     * @param filter    the filter.
     * @param operation stream or contains.
     * @param item      the element's bytes, at most the longest element long (not consumed).
     */
    final void publishItem(final DuplicateFilter filter, final Operation operation, final ByteBuf item)
    {
        final int length = item.readableBytes();
        final long before = publishedByLoop();
        // counted before the pipeline can judge it, so that its delivery sees whether it is the last (deliver)
        PUBLISHED.setRelease(this, before + 1);
        boolean done = false;
        try
        {
            pipeline.publish(filter, operation, bytesOf(item), 0, length, tag);
            done = true;
        }
        finally
        {
            if (!done)
            {
                PUBLISHED.setRelease(this, before); // refused (the pipeline is closing): no verdict will come
            }
        }
    }

    /**
     * @param item an element (not consumed).
     * @return its readable bytes from offset 0 of a reused view: the heap array or the direct memory where the
     *     decoder left them, or a copy in the scratch array for a composite buffer. Valid until the next call.
     */
    private DirectBuffer bytesOf(final ByteBuf item)
    {
        final int length = item.readableBytes();
        if (item.hasArray())
        {
            view.wrap(item.array(), item.arrayOffset() + item.readerIndex(), length);
        }
        else if (item.hasMemoryAddress())
        {
            view.wrap(item.memoryAddress() + item.readerIndex(), length);
        }
        else
        {
            item.getBytes(item.readerIndex(), scratch, 0, length);
            view.wrap(scratch, 0, length);
        }
        return view;
    }

    /** Consumes what verdicts are available and writes what they complete; on the event loop. */
    abstract void onVerdicts();
}
