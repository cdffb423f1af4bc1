package io.ddf.ingest.session;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Operation;
import io.ddf.engine.Verdict;
import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.ingest.resp.ReplyWriter;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.EventExecutor;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A connection's verdicts, in the order its elements were submitted: where an element is judged and where its
 * verdict waits for the reply that carries it. {@link #submit} (and {@link #submitHashes}, the raw feed's batches)
 * is where it chooses how, as {@code serve --execution} (for the feed {@code --feed-mode}) says:
 * <ul>
 * <li>inline (the default): the event loop calls the filter itself, where the command was decoded, as Redis
 * executes a command; the verdict is written into the ring only once {@code streamHash} has returned, i.e. once the
 * element's row is stored in the mapping, so a reply written from it survives a {@code kill -9}. Several event loops
 * may stream into one filter at once: the daemon's filters are built shared (rows updated by compare-and-swap,
 * counters striped per thread), and the caller holds the filter's {@link FilterStore.Lease}.</li>
 * <li>pipeline: the element is copied into the Disruptor ring and judged on the pipeline's thread, which hands the
 * verdict back through the {@link VerdictRouter} ({@link #deliver}) after storing it.</li>
 * </ul>
 * Either way the verdicts are read in the same order from the same ring ({@link ReplyWriter.Verdicts}), so the
 * replies take one path.
 *
 * <p>One writer (the router's thread, or inline the event loop itself) and one reader (the event loop). Through
 * the pipeline one wake-up task at a time is scheduled on the event loop to consume them. The event loop never has
 * more elements outstanding (submitted, verdict not yet consumed) than the ring holds: {@link #reserve} has the
 * owner consume them, and if need be waits for the pipeline, first.
 */
public final class VerdictRing implements ReplyWriter.Verdicts
{
    /** Who consumes the verdicts: the connection, on its event loop. */
    public interface Owner
    {
        /** Consumes what verdicts are available and writes what they complete; on the event loop. */
        void onVerdicts();
    }

    /** Verdicts a RESP connection may have outstanding (the default capacity). */
    public static final int RING = 4096;
    /**
     * Items of a command judged inline hashed and touched together before the first of them is streamed, so that
     * their cache misses (one line per generation each) overlap: {@code MappedFilter}'s batch group, measured there.
     */
    public static final int GROUP = 16;
    /** A verdict byte that is no verdict: the pipeline could not judge the element ({@link #deliverFailure}). */
    private static final byte FAILED = 2;
    private static final VarHandle DELIVERED;
    private static final VarHandle PUBLISHED;

    static
    {
        try
        {
            DELIVERED = MethodHandles.lookup().findVarHandle(VerdictRing.class, "delivered", long.class);
            PUBLISHED = MethodHandles.lookup().findVarHandle(VerdictRing.class, "published", long.class);
        }
        catch (final ReflectiveOperationException e)
        {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final byte[] ring;
    /** {@code ring.length - 1}: the ring's length is a power of two. */
    private final int mask;
    /**
     * Without a wake-up task for every verdict, still one at least every this many (an eighth of the ring), so a
     * feed that never stops publishing gets its verdicts (and the event loop room in the ring) long before the ring
     * is full.
     */
    private final int wakeEvery;
    private final FilterPipeline pipeline;
    private final Owner owner;
    /** Whether elements are judged on the event loop rather than through the pipeline. */
    private final boolean inline;
    /** A direct element's bytes where the decoder left them (a heap element is hashed from its array). */
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    /** Holds an element of a buffer that is neither on the heap nor direct (composite). */
    private final byte[] scratch;
    /** The hashes of an inline group ({@link #submitAll}). */
    private final long[] group = new long[GROUP];
    /** What the touches of a group read: stored, so that the reads are not optimised away (never read). */
    @SuppressWarnings("unused")
    private long touched;
    private final AtomicBoolean wakeScheduled = new AtomicBoolean();
    private final Runnable wake = this::wake;
    private EventExecutor executor;
    @SuppressWarnings("unused")
    private volatile long delivered;
    /** Verdicts written into the ring: by the router's thread, or (inline) by the event loop itself. */
    private long deliveredByWriter;
    /** The failures of the {@link #FAILED} bytes delivered and not yet taken, in order. */
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    /** The failure of the verdict {@link #next} took last, or null. */
    private String failed;
    /** Verdicts consumed, on the event loop. */
    private long consumed;
    /** Elements published: written by the event loop (release), read by the router's thread (acquire). */
    @SuppressWarnings("unused")
    private volatile long published;
    /** The tag verdicts come back with, set on registration with the router. */
    private long tag = -1;

    /**
     * @param pipeline        judges the elements, unless inline.
     * @param maxElementBytes the longest element submitted.
     * @param inline          whether elements are judged on the event loop.
     * @param owner           consumes the verdicts.
     */
    public VerdictRing(final FilterPipeline pipeline, final int maxElementBytes, final boolean inline, final Owner owner)
    {
        this(pipeline, maxElementBytes, inline, owner, RING);
    }

    /**
     * @param pipeline        judges the elements, unless inline.
     * @param maxElementBytes the longest element submitted.
     * @param inline          whether elements are judged on the event loop.
     * @param owner           consumes the verdicts.
     * @param capacity        verdicts outstanding at most: a power of two, at least {@link #RING}.
     */
    public VerdictRing(final FilterPipeline pipeline, final int maxElementBytes, final boolean inline,
        final Owner owner, final int capacity)
    {
        if (capacity < RING || Integer.bitCount(capacity) != 1)
        {
            throw new IllegalArgumentException("ring capacity " + capacity + " is not a power of two of at least " +
                RING);
        }
        this.ring = new byte[capacity];
        this.mask = capacity - 1;
        this.wakeEvery = capacity / 8;
        this.pipeline = pipeline;
        this.scratch = new byte[maxElementBytes];
        this.inline = inline;
        this.owner = owner;
    }

    /** @param executor the owner's event loop, where wake-ups run. */
    public void attach(final EventExecutor executor)
    {
        this.executor = executor;
    }

    /** @return the tag verdicts come back with, or -1 before registration. */
    public long tag()
    {
        return tag;
    }

    /** @param tag the tag the router gave. */
    public void tag(final long tag)
    {
        this.tag = tag;
    }

    /**
     * Called by the router's thread, in publication order. Wakes the event loop only once the verdict is the last
     * one outstanding (the client's pipelined batch is judged, so its replies go out in one write) or every
     * {@link #wakeEvery} verdicts: not once per element. No wake-up is lost: the event loop publishes (release)
     * before the element can be judged, so the delivery of the last element published sees it as last.
     *
     * @param verdict the next verdict.
     */
    void deliver(final Verdict verdict)
    {
        deliver(verdict == Verdict.DUPLICATE ? (byte)1 : (byte)0);
    }

    /**
     * The router's thread: the pipeline could not judge the next element (its filter threw, e.g. its change log
     * could not be written): in its place the reader finds the failure ({@link #failed}).
     *
     * @param failure what the reply or the feed says instead of a verdict, one line.
     */
    void deliverFailure(final String failure)
    {
        failures.add(failure); // before the byte's release below: the reader that sees the byte finds the message
        deliver(FAILED);
    }

    private void deliver(final byte verdict)
    {
        final long d = deliveredByWriter;
        ring[(int)(d & mask)] = verdict;
        deliveredByWriter = d + 1;
        DELIVERED.setRelease(this, d + 1);
        if ((d + 1 == (long)PUBLISHED.getAcquire(this) || (d + 1) % wakeEvery == 0) &&
            !wakeScheduled.get() && wakeScheduled.compareAndSet(false, true))
        {
            final EventExecutor loop = executor;
            if (loop != null)
            {
                loop.execute(wake);
            }
        }
    }

    private void wake()
    {
        wakeScheduled.set(false);
        owner.onVerdicts();
    }

    @Override
    public int available()
    {
        return (int)((long)DELIVERED.getAcquire(this) - consumed);
    }

    @Override
    public boolean next()
    {
        final byte verdict = ring[(int)(consumed++ & mask)];
        failed = verdict == FAILED ? failures.poll() : null;
        return verdict == 1;
    }

    /** @return why the element whose verdict {@link #next} just took has none, or null (it has one). */
    @Override
    public String failed()
    {
        return failed;
    }

    /** @return elements published whose verdicts are not consumed yet. */
    long outstanding()
    {
        return publishedByLoop() - consumed;
    }

    /**
     * @return elements submitted whose verdicts have not arrived yet (event loop); 0 once every one is judged and
     *     the filters' counts include it.
     */
    public long unjudged()
    {
        return publishedByLoop() - (long)DELIVERED.getAcquire(this);
    }

    /**
     * @return verdicts the event loop has written into the ring judging inline, all along: what a command judged is
     *     the difference across it (event loop).
     */
    public long judgedInline()
    {
        return deliveredByWriter;
    }

    /** @return elements published (event loop: its own plain read). */
    private long publishedByLoop()
    {
        return (long)PUBLISHED.get(this);
    }

    /** Drops every verdict delivered and not consumed (the connection is closing). */
    public void dropAvailable()
    {
        while (available() > 0)
        {
            next();
        }
    }

    /**
     * Makes room for {@code count} more outstanding elements (at most the capacity): the owner consumes verdicts,
     * waiting for the pipeline when the ring is full.
     *
     * @param count elements about to be published.
     */
    public void reserve(final int count)
    {
        while (publishedByLoop() - consumed + count > ring.length)
        {
            final long before = consumed;
            owner.onVerdicts();
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
    public void submit(final DuplicateFilter filter, final Operation operation, final ByteBuf item)
    {
        reserve(1);
        if (!inline)
        {
            publishItem(filter, operation, item);
            return;
        }
        final long hash = hash(filter, item, item.readerIndex(), item.readableBytes());
        final boolean yes = operation == Operation.STREAM ? filter.streamHash(hash) == Verdict.DUPLICATE :
            filter.containsHash(hash);
        // the row is in the mapping now; only then is the verdict one that a reply may carry
        final long d = deliveredByWriter;
        ring[(int)(d & mask)] = yes ? (byte)1 : (byte)0;
        deliveredByWriter = d + 1;
        PUBLISHED.setRelease(this, publishedByLoop() + 1);
        DELIVERED.setRelease(this, d + 1);
    }

    /**
     * Judges the items {@code args[first..]} in order, as that many {@link #submit} calls would: the same verdicts,
     * each written into the ring once its element is stored. Inline, in groups of {@link #GROUP}: each item hashed
     * once where the decoder left it and its state touched ({@link DuplicateFilter#touchHash}) before the first of
     * the group is streamed, so that the group's cache misses overlap instead of queueing; one release of the
     * counts per group. Call holding the filter's lease.
     *
     * @param filter    the filter.
     * @param operation stream or contains.
     * @param args      the command's arguments (not consumed), each at most the longest element long.
     * @param first     the first item.
     */
    public void submitAll(final DuplicateFilter filter, final Operation operation, final ByteBuf[] args, final int first)
    {
        if (!inline)
        {
            for (int i = first; i < args.length; i++)
            {
                submit(filter, operation, args[i]);
            }
            return;
        }
        final boolean stream = operation == Operation.STREAM;
        final long[] hashes = group;
        long sink = 0;
        for (int from = first; from < args.length; from += GROUP)
        {
            final int count = Math.min(GROUP, args.length - from);
            reserve(count);
            for (int i = 0; i < count; i++)
            {
                final ByteBuf item = args[from + i];
                final long hash = hash(filter, item, item.readerIndex(), item.readableBytes());
                hashes[i] = hash;
                sink += filter.touchHash(hash);
            }
            judgeGroup(filter, stream, hashes, 0, count);
        }
        touched += sink;
    }

    /**
     * Judges a batch of elements by their hashes, in order (the raw feed's way), as {@code serve --feed-mode} says:
     * inline, in groups of {@link #GROUP} whose states are touched before the first of them is streamed (as
     * {@link #submitAll}), each verdict written into the ring once its element is stored; or through the pipeline
     * ({@link #publishHashes}). Make room first ({@link #reserve}), hold the filter's lease meanwhile.
     *
     * @param filter    the filter that hashed them.
     * @param operation stream or contains.
     * @param hashes    the elements' hashes, from index 0.
     * @param count     how many, at most {@link VerdictRouter#MAX_BATCH}.
     */
    public void submitHashes(final DuplicateFilter filter, final Operation operation, final long[] hashes,
        final int count)
    {
        if (!inline)
        {
            publishHashes(filter, operation, hashes, count);
            return;
        }
        final boolean stream = operation == Operation.STREAM;
        long sink = 0;
        for (int from = 0; from < count; from += GROUP)
        {
            final int group = Math.min(GROUP, count - from);
            for (int i = from; i < from + group; i++)
            {
                sink += filter.touchHash(hashes[i]);
            }
            judgeGroup(filter, stream, hashes, from, group);
        }
        touched += sink;
    }

    /**
     * Inline: the verdict of the next element, judged by the caller itself and stored already (an add to a scaling
     * chain, the raw feed's); {@link #next} sees it once {@link #publishJudged} publishes it. Make room first
     * ({@link #reserve}).
     *
     * @param duplicate whether the element was there already.
     * @throws IllegalStateException when the elements are judged through the pipeline.
     */
    public void judged(final boolean duplicate)
    {
        if (!inline)
        {
            throw new IllegalStateException("verdicts of elements judged by the caller are inline only");
        }
        ring[(int)(deliveredByWriter++ & mask)] = duplicate ? (byte)1 : (byte)0;
    }

    /** Publishes the verdicts {@link #judged} wrote to the reader, with one release. */
    public void publishJudged()
    {
        final long d = deliveredByWriter;
        PUBLISHED.setRelease(this, d); // inline, every element published was judged: the two counts move together
        DELIVERED.setRelease(this, d);
    }

    /**
     * Streams (or looks up) {@code hashes[from..from+count)} in order on this thread, writing each verdict into the
     * ring once its element is stored, then publishes them to the reader with one release.
     */
    private void judgeGroup(final DuplicateFilter filter, final boolean stream, final long[] hashes, final int from,
        final int count)
    {
        final long start = deliveredByWriter;
        long d = start;
        try
        {
            for (int i = from; i < from + count; i++)
            {
                final boolean yes = stream ? filter.streamHash(hashes[i]) == Verdict.DUPLICATE :
                    filter.containsHash(hashes[i]);
                // the row is in the mapping now; only then is the verdict one that a reply may carry
                ring[(int)(d++ & mask)] = yes ? (byte)1 : (byte)0;
            }
        }
        finally
        {
            // an element refused midway (its change log record could not be appended): the verdicts before it count
            deliveredByWriter = d;
            PUBLISHED.setRelease(this, publishedByLoop() + (d - start));
            DELIVERED.setRelease(this, d);
        }
    }

    /**
     * @param filter the filter whose hash it is.
     * @param buffer holds the element (not consumed).
     * @param index  of its first byte.
     * @param length its length, at most the longest element.
     * @return the filter's hash of the element, read where the decoder left it: the heap array, or the direct
     *     memory through a view, or a copy for a composite buffer.
     */
    public long hash(final DuplicateFilter filter, final ByteBuf buffer, final int index, final int length)
    {
        if (buffer.hasArray())
        {
            return filter.hash(buffer.array(), buffer.arrayOffset() + index, length);
        }
        if (buffer.hasMemoryAddress())
        {
            view.wrap(buffer.memoryAddress() + index, length);
            return filter.hash(view, 0, length);
        }
        buffer.getBytes(index, scratch, 0, length);
        return filter.hash(scratch, 0, length);
    }

    /**
     * Publishes a batch of elements by their hashes into the pipeline, packed as it packs (the raw feed's ring
     * mode): one claim for the batch, their verdicts to come back to this ring in order. Make room first
     * ({@link #reserve}), hold the filter's lease meanwhile.
     *
     * @param filter    the filter that hashed them.
     * @param operation stream or contains.
     * @param hashes    the elements' hashes, from index 0.
     * @param count     how many, at most {@link VerdictRouter#MAX_BATCH}.
     */
    private void publishHashes(final DuplicateFilter filter, final Operation operation, final long[] hashes, final int count)
    {
        final long before = publishedByLoop();
        // counted before the pipeline can judge them, so that the delivery of the last sees it is the last
        PUBLISHED.setRelease(this, before + count);
        boolean done = false;
        try
        {
            pipeline.publishHashes(filter, operation, hashes, 0, count, tag);
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
     * Publishes one element into the pipeline, its verdict to come back to this ring: make room first
     * ({@link #reserve}), hold the filter's lease meanwhile.
     *
     * @param filter    the filter.
     * @param operation stream or contains.
     * @param item      the element's bytes, at most the longest element long (not consumed).
     */
    void publishItem(final DuplicateFilter filter, final Operation operation, final ByteBuf item)
    {
        final int length = item.readableBytes();
        final long before = publishedByLoop();
        // counted before the pipeline can judge it, so that its delivery sees whether it is the last (deliver)
        PUBLISHED.setRelease(this, before + 1);
        boolean done = false;
        try
        {
            if (item.hasArray())
            {
                pipeline.publish(filter, operation, item.array(), item.arrayOffset() + item.readerIndex(), length,
                    tag);
            }
            else if (item.hasMemoryAddress())
            {
                view.wrap(item.memoryAddress() + item.readerIndex(), length);
                pipeline.publish(filter, operation, view, 0, length, tag);
            }
            else
            {
                item.getBytes(item.readerIndex(), scratch, 0, length);
                pipeline.publish(filter, operation, scratch, 0, length, tag);
            }
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
}
