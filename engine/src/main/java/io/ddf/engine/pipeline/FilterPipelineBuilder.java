package io.ddf.engine.pipeline;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.PhasedBackoffWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Configures a {@link FilterPipeline}. Defaults suit a 2-core machine: a ring of 4096 slots of 512 bytes, one
 * hasher and one inserter (fused with the verdict delivery on one handler thread) and the {@code phased} wait
 * strategy (see {@link #waitStrategy}).
 */
public final class FilterPipelineBuilder
{
    /** Default slots in the ring. */
    public static final int DEFAULT_RING_SIZE = 4096;
    /** Default largest element, in bytes. */
    public static final int DEFAULT_MAX_ELEMENT_BYTES = 512;
    /** Default wait strategy. */
    public static final String DEFAULT_WAIT_STRATEGY = "phased";
    /** Most hashers or inserters accepted. */
    static final int MAX_HANDLERS = 64;

    private int ringSize = DEFAULT_RING_SIZE;
    private int maxElementBytes = DEFAULT_MAX_ELEMENT_BYTES;
    private int hashers = 1;
    private int inserters = 1;
    private String waitStrategy = DEFAULT_WAIT_STRATEGY;
    private VerdictListener listener;
    private int prefetch;
    private Duration closeTimeout = Duration.ofSeconds(30);
    private boolean singleProducer;
    private boolean hashOnPublish;
    private int longsPerSlot = 1;

    FilterPipelineBuilder()
    {
    }

    /**
     * @param ringSize slots in the ring, a power of two.
     * @return this.
     */
    public FilterPipelineBuilder ringSize(final int ringSize)
    {
        if (ringSize < 1 || Integer.bitCount(ringSize) != 1)
        {
            throw new IllegalArgumentException("ring size must be a positive power of two, not " + ringSize);
        }
        this.ringSize = ringSize;
        return this;
    }

    /**
     * @param maxElementBytes the largest element accepted; each slot preallocates this many bytes.
     * @return this.
     */
    public FilterPipelineBuilder maxElementBytes(final int maxElementBytes)
    {
        if (maxElementBytes < 1 || maxElementBytes > (1 << 24))
        {
            throw new IllegalArgumentException("max element bytes must be in [1, 2^24], not " + maxElementBytes);
        }
        this.maxElementBytes = maxElementBytes;
        return this;
    }

    /**
     * @param hashers number of hashing handlers.
     * @return this.
     */
    public FilterPipelineBuilder hashers(final int hashers)
    {
        this.hashers = checkHandlers("hashers", hashers);
        return this;
    }

    /**
     * @param inserters number of insertion handlers (partitioned filters spread over them; a filter that is not
     *                  partitioned always goes to the first).
     * @return this.
     */
    public FilterPipelineBuilder inserters(final int inserters)
    {
        this.inserters = checkHandlers("inserters", inserters);
        return this;
    }

    /**
     * @param waitStrategy how idle handlers wait: {@code blocking}, {@code sleeping}, {@code yielding},
     *                     {@code busy-spin} or {@code phased}. The default, {@code phased}, spins 20 µs, yields
     *                     200 µs, then blocks on a lock that publishers signal only when a handler waits on it: as
     *                     fast as {@code sleeping} under load and no CPU when idle. Measured on this 2-core machine
     *                     with {@code bench/run.sh PipelineTiming qht 1048576 10000000 8 1 1 W}: sleeping 11.1,
     *                     phased 11.2 million elements per second; an idle {@code ddf serve} used 7.8 % of a core
     *                     with sleeping (it parks 100 ns at a time) and 0.1 % with phased. {@code blocking} takes a
     *                     lock on every publication; {@code yielding} and {@code busy-spin} keep a core busy and
     *                     suit only machines with cores to spare.
     * @return this.
     */
    public FilterPipelineBuilder waitStrategy(final String waitStrategy)
    {
        Objects.requireNonNull(waitStrategy, "waitStrategy");
        newWaitStrategy(waitStrategy);
        this.waitStrategy = waitStrategy;
        return this;
    }

    /**
     * @param listener receives the verdicts in publication order.
     * @return this.
     */
    public FilterPipelineBuilder listener(final VerdictListener listener)
    {
        this.listener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * Memory-level parallelism: each inserter (or the fused handler) first touches the rows of the next
     * {@code prefetch} events of its batch (a read-only {@code containsHash}), so their cache misses overlap, then
     * decides them. 0 (the default)
     * turns it off; see {@code bench/run.sh PipelineTiming} for when it pays.
     *
     * @param prefetch events touched ahead, 0 to 64.
     * @return this.
     */
    public FilterPipelineBuilder prefetch(final int prefetch)
    {
        if (prefetch < 0 || prefetch > 64)
        {
            throw new IllegalArgumentException("prefetch must be in [0, 64], not " + prefetch);
        }
        this.prefetch = prefetch;
        return this;
    }

    /**
     * Promises that one thread publishes: the ring then claims with the Disruptor's single-producer sequencer
     * (plain loads and an ordered store per claim, where the multi-producer default does an atomic getAndAdd, a
     * locked instruction, per claim and tracks each slot's availability). Publishing from two threads at once is a
     * misuse that corrupts the ring's order (elements overwritten or lost), not a checked error; so is calling
     * {@link FilterPipeline#close} while a publication is under way: call it from the producer, or after the
     * producer's last publication happened before it (e.g. the producer thread was joined). Without this call the
     * pipeline accepts any number of producers.
     *
     * @return this.
     */
    public FilterPipelineBuilder singleProducer()
    {
        this.singleProducer = true;
        return this;
    }

    /**
     * Moves hashing to the publishing thread: each element is hashed right after it is copied into its slot, and
     * the handlers only route and update rows. With one producer on a 2-core machine the producer has time to
     * spare (a batch publication costs a few ns per element) while the handler thread is the bottleneck, so this
     * balances the two cores. The verdicts are unchanged (the same bytes, the same hash). A filter whose
     * {@code hash} throws makes the publication throw, and the element is reported to the listener's
     * {@code onError} in its place (for a batch: that element and the rest of its claim).
     *
     * @return this.
     */
    public FilterPipelineBuilder hashOnPublish()
    {
        this.hashOnPublish = true;
        return this;
    }

    /**
     * Packs the elements of a {@code publishBatch(filter, op, long[], ...)} {@code k} to a ring slot, and the handler
     * judges each slot's elements with the filter's batch {@code stream(long[], ...)}: the elements cross from the
     * producer's core to the handler's 8 bytes each, densely, instead of one slot (its own cache lines) each, and the
     * handler gets the batch path (hashing overlapped, rows touched ahead, one count per slot). The verdicts, their
     * order and their tags are unchanged; other publications still take one slot per element. Needs the fused
     * handler (one hasher, one inserter); the elements of a packed slot are hashed by the handler, in the batch,
     * whether or not {@link #hashOnPublish} is set. Default 1 (no packing).
     *
     * @param k elements per slot, 1 to 1024.
     * @return this.
     */
    public FilterPipelineBuilder longsPerSlot(final int k)
    {
        if (k < 1 || k > 1024)
        {
            throw new IllegalArgumentException("longs per slot must be 1 to 1024, not " + k);
        }
        this.longsPerSlot = k;
        return this;
    }

    /**
     * @param closeTimeout how long {@link FilterPipeline#close} waits for the listener to make progress (and for
     *                     each thread to stop) before giving up; default 30 s.
     * @return this.
     */
    public FilterPipelineBuilder closeTimeout(final Duration closeTimeout)
    {
        if (closeTimeout.isNegative() || closeTimeout.isZero())
        {
            throw new IllegalArgumentException("close timeout must be positive, not " + closeTimeout);
        }
        this.closeTimeout = closeTimeout;
        return this;
    }

    /** @return the started pipeline. */
    public FilterPipeline build()
    {
        if (listener == null)
        {
            throw new IllegalStateException("a pipeline needs a listener (FilterPipelineBuilder.listener)");
        }
        if (ringSize < 2 * (long)hashers)
        {
            throw new IllegalArgumentException("ring of " + ringSize + " slots is too small for " + hashers +
                " hashers");
        }
        if (longsPerSlot > 1 && (hashers != 1 || inserters != 1))
        {
            throw new IllegalArgumentException("longsPerSlot(" + longsPerSlot + ") needs the fused handler (one " +
                "hasher and one inserter), not " + hashers + " hashers and " + inserters + " inserters");
        }
        return new FilterPipeline(ringSize, maxElementBytes, hashers, inserters, newWaitStrategy(waitStrategy),
            listener, prefetch, closeTimeout.toNanos(), singleProducer,
            hashOnPublish, longsPerSlot);
    }

    private static int checkHandlers(final String what, final int count)
    {
        if (count < 1 || count > MAX_HANDLERS)
        {
            throw new IllegalArgumentException(what + " must be in [1, " + MAX_HANDLERS + "], not " + count);
        }
        return count;
    }

    /** {@code phased}: spin this long, then yield... */
    private static final long PHASED_SPIN_MICROS = 20;
    /** ...this long, then block on a lock that publishers signal only when a handler waits on it. */
    private static final long PHASED_YIELD_MICROS = 200;

    private static WaitStrategy newWaitStrategy(final String name)
    {
        switch (name.toLowerCase(Locale.ROOT))
        {
            case "blocking":
                return new BlockingWaitStrategy();
            case "sleeping":
                return new SleepingWaitStrategy();
            case "yielding":
                return new YieldingWaitStrategy();
            case "busy-spin":
                return new BusySpinWaitStrategy();
            case "phased":
                return PhasedBackoffWaitStrategy.withLiteLock(PHASED_SPIN_MICROS, PHASED_YIELD_MICROS,
                    TimeUnit.MICROSECONDS);
            default:
                throw new IllegalArgumentException("unknown wait strategy '" + name +
                    "' (valid: blocking, sleeping, yielding, busy-spin, phased)");
        }
    }
}
