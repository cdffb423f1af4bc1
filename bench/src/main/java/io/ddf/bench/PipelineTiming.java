package io.ddf.bench;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.Verdict;
import io.ddf.engine.pipeline.FilterPipeline;
import io.ddf.engine.pipeline.FilterPipelineBuilder;
import io.ddf.engine.Operation;
import io.ddf.engine.pipeline.VerdictListener;

import org.agrona.concurrent.UnsafeBuffer;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteOrder;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Elements per second of the Disruptor pipeline against the sequential filter, on this machine: one producer
 * thread publishes {@code ELEMENTS} distinct-ish random elements of 8 bytes ({@code publish(long)}, against
 * {@code stream(long)}) or 16 bytes ({@code publish(byte[])}, against {@code stream(byte[])}); a pipeline pass is
 * timed from its first publication to the end of {@code close()}, so every verdict has reached the listener.
 * Each measurement is repeated (a fresh filter each time, the first pass a warm-up) and the best pass printed.
 *
 * <p>Usage: {@code PipelineTiming KIND MEMORY_BITS [ELEMENTS] [ELEMENT_BYTES] [HASHERS] [INSERTERS]
 * [WAIT_STRATEGY] [PREFETCH] [RING_SIZE] [PASSES] [PRODUCER] [BATCH] [hash-on-publish|-] [single-writer|-]
 * [LONGS_PER_SLOT]}; defaults 10^7 elements, 8 bytes, the
 * builder's defaults for the pipeline, 3 passes, {@code multi} producer (the builder's default; {@code single}
 * calls {@code singleProducer()}), batch 1 (one {@code publish} per element; more: {@code publishBatch} of that
 * many 8-byte elements, or of 16-byte elements laid end to end in one buffer), then {@code hash-on-publish} to
 * call {@code hashOnPublish()} ({@code -} not to), then {@code single-writer} to build both the direct and the
 * pipeline's filters with {@code singleWriter()} (one thread updates each row in both). {@code bench/run.sh PipelineTiming} runs it with the right JVM flags.
 */
public final class PipelineTiming
{
    private PipelineTiming()
    {
    }

    /** Counts duplicates on the listener thread. */
    private static final class Counting implements VerdictListener
    {
        private long duplicates;

        @Override
        public void onVerdict(final long tag, final Verdict verdict)
        {
            duplicates += verdict == Verdict.DUPLICATE ? 1 : 0;
        }
    }

    /**
     * @param args see the class comment.
     */
    public static void main(final String[] args)
    {
        final FilterKind kind = FilterKind.fromName(args[0]);
        final long memoryBits = Long.parseLong(args[1]);
        final int elements = args.length > 2 ? Integer.parseInt(args[2]) : 10_000_000;
        final int elementBytes = args.length > 3 ? Integer.parseInt(args[3]) : 8;
        final int hashers = args.length > 4 ? Integer.parseInt(args[4]) : 1;
        final int inserters = args.length > 5 ? Integer.parseInt(args[5]) : 1;
        final String wait = args.length > 6 ? args[6] : FilterPipelineBuilder.DEFAULT_WAIT_STRATEGY;
        final int prefetch = args.length > 7 ? Integer.parseInt(args[7]) : 0;
        final int ringSize = args.length > 8 ? Integer.parseInt(args[8]) : FilterPipelineBuilder.DEFAULT_RING_SIZE;
        final int passes = args.length > 9 ? Integer.parseInt(args[9]) : 3;
        final String producer = args.length > 10 ? args[10] : "multi";
        final int batch = args.length > 11 ? Integer.parseInt(args[11]) : 1;
        final boolean hashOnPublish = args.length > 12 && args[12].equals("hash-on-publish");
        final boolean singleWriter = args.length > 13 && args[13].equals("single-writer");
        final int longsPerSlot = args.length > 14 ? Integer.parseInt(args[14]) : 1;
        if (!producer.equals("single") && !producer.equals("multi"))
        {
            throw new IllegalArgumentException("producer: single or multi");
        }
        if (elementBytes != 8 && elementBytes != 16)
        {
            throw new IllegalArgumentException("element bytes: 8 or 16");
        }
        final long[] keys = new SplittableRandom(42).longs(elements).toArray();
        final byte[] element = new byte[16];
        final UnsafeBuffer batchBytes = new UnsafeBuffer(new byte[16 * Math.max(1, batch)]);
        final int[] offsets = new int[Math.max(1, batch)];
        final int[] lengths = new int[Math.max(1, batch)];
        for (int i = 0; i < offsets.length; i++)
        {
            offsets[i] = 16 * i;
            lengths[i] = 16;
        }
        System.out.printf(Locale.ROOT, "%s %d bits, %d elements of %d bytes; pipeline: %d hashers, %d inserters, "
                + "%s wait, prefetch %d, ring %d, %s producer, batch %d, hash on publish %b, single writer %b; "
                + "%d cores%n", kind.cliName(), memoryBits,
            elements, elementBytes, hashers, inserters, wait, prefetch, ringSize, producer, batch,
            hashOnPublish, singleWriter, Runtime.getRuntime().availableProcessors());

        final ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double bestSequential = 0;
        double directCpu = Double.MAX_VALUE;
        for (int pass = 0; pass < passes; pass++)
        {
            try (DuplicateFilter filter = builder(kind, memoryBits, pass, singleWriter).create())
            {
                long sink = 0;
                final long cpuStart = mx.getCurrentThreadCpuTime();
                final long start = System.nanoTime();
                for (int i = 0; i < elements; i++)
                {
                    if (elementBytes == 8)
                    {
                        sink += filter.stream(keys[i]).ordinal();
                    }
                    else
                    {
                        fill(element, keys[i]);
                        sink += filter.stream(element, 0, 16).ordinal();
                    }
                }
                final double rate = elements / ((System.nanoTime() - start) / 1e9);
                final double cpu = (mx.getCurrentThreadCpuTime() - cpuStart) / (double)elements;
                bestSequential = pass == 0 ? 0 : Math.max(bestSequential, rate);
                directCpu = pass == 0 ? directCpu : Math.min(directCpu, cpu);
                System.out.printf(Locale.ROOT, "  sequential pass %d: %.2f M elements/s, %.1f cpu ns per element "
                    + "(%d duplicates)%n", pass, rate / 1e6, cpu, sink);
            }
        }

        double bestPipeline = 0;
        double handlerCpu = Double.MAX_VALUE;
        double producerCpu = Double.MAX_VALUE;
        for (int pass = 0; pass < passes; pass++)
        {
            try (DuplicateFilter filter = builder(kind, memoryBits, pass, singleWriter).create())
            {
                final Counting counting = new Counting();
                final Set<Thread> existing = new HashSet<>(Thread.getAllStackTraces().keySet());
                final long cpuStart = mx.getCurrentThreadCpuTime();
                final long start = System.nanoTime();
                final FilterPipelineBuilder builder = FilterPipeline.builder().hashers(hashers).inserters(inserters)
                    .waitStrategy(wait).prefetch(prefetch).ringSize(ringSize).listener(counting);
                if (producer.equals("single"))
                {
                    builder.singleProducer();
                }
                if (hashOnPublish)
                {
                    builder.hashOnPublish();
                }
                if (longsPerSlot > 1)
                {
                    builder.longsPerSlot(longsPerSlot);
                }
                try (FilterPipeline pipeline = builder.build())
                {
                    if (batch > 1)
                    {
                        publishBatches(pipeline, filter, keys, elementBytes, batch, batchBytes, offsets, lengths);
                    }
                    else
                    {
                        for (int i = 0; i < elements; i++)
                        {
                            if (elementBytes == 8)
                            {
                                pipeline.publish(filter, Operation.STREAM, keys[i], i);
                            }
                            else
                            {
                                fill(element, keys[i]);
                                pipeline.publish(filter, Operation.STREAM, element, 0, 16, i);
                            }
                        }
                    }
                    // CPU time of each side, read before close ends the handler threads (which started at build,
                    // so theirs covers the whole pass, waits included; a load-independent view of the cost)
                    while (pipeline.delivered() < elements)
                    {
                        LockSupport.parkNanos(100_000);
                    }
                    final double producerNs = (mx.getCurrentThreadCpuTime() - cpuStart) / (double)elements;
                    long handlersNs = 0;
                    for (final Thread thread : Thread.getAllStackTraces().keySet())
                    {
                        if (!existing.contains(thread) && thread.getName().startsWith("ddf-pipeline"))
                        {
                            handlersNs += Math.max(0, mx.getThreadCpuTime(thread.getId()));
                        }
                    }
                    if (pass > 0)
                    {
                        producerCpu = Math.min(producerCpu, producerNs);
                        handlerCpu = Math.min(handlerCpu, handlersNs / (double)elements);
                    }
                    System.out.printf(Locale.ROOT, "  pipeline   pass %d: cpu ns per element: producer %.1f, "
                        + "handlers %.1f%n", pass, producerNs, handlersNs / (double)elements);
                }
                final double rate = elements / ((System.nanoTime() - start) / 1e9);
                bestPipeline = pass == 0 ? 0 : Math.max(bestPipeline, rate);
                System.out.printf(Locale.ROOT, "  pipeline   pass %d: %.2f M elements/s (%d duplicates)%n", pass,
                    rate / 1e6, counting.duplicates);
            }
        }
        System.out.printf(Locale.ROOT, "RESULT %s bits=%d bytes=%d H=%d I=%d wait=%s prefetch=%d ring=%d "
                + "producer=%s batch=%d hashOnPublish=%b singleWriter=%b longsPerSlot=%d: sequential %.2f M/s, "
                + "pipeline %.2f M/s (%.2fx)%n", kind.cliName(),
            memoryBits, elementBytes, hashers, inserters, wait, prefetch, ringSize, producer, batch,
            hashOnPublish, singleWriter, longsPerSlot, bestSequential / 1e6, bestPipeline / 1e6,
            bestPipeline / bestSequential);
        // A load-independent view: with a core for each thread, the pipeline's rate is bounded by its busier side.
        System.out.printf(Locale.ROOT, "CPU direct %.1f ns/element; pipeline producer %.1f, handlers %.1f ns/element;"
                + " cpu ratio direct / max(producer, handlers) = %.2f%n", directCpu, producerCpu, handlerCpu,
            directCpu / Math.max(producerCpu, handlerCpu));
    }

    private static FilterBuilder builder(final FilterKind kind, final long memoryBits, final int seed,
        final boolean singleWriter)
    {
        final FilterBuilder builder = Filters.builder(kind).memoryBits(memoryBits).seed(seed);
        return singleWriter ? builder.singleWriter() : builder;
    }

    /** Publishes the keys in batches: the producer's side of a batch is one claim, the copies, one publish. */
    private static void publishBatches(final FilterPipeline pipeline, final DuplicateFilter filter, final long[] keys,
        final int elementBytes, final int batch, final UnsafeBuffer bytes, final int[] offsets, final int[] lengths)
    {
        for (int from = 0; from < keys.length; from += batch)
        {
            final int n = Math.min(batch, keys.length - from);
            if (elementBytes == 8)
            {
                pipeline.publishBatch(filter, Operation.STREAM, keys, from, n, from);
            }
            else
            {
                for (int i = 0; i < n; i++)
                {
                    bytes.putLong(16 * i, keys[from + i], ByteOrder.LITTLE_ENDIAN);
                    bytes.putLong(16 * i + 8, ~keys[from + i], ByteOrder.LITTLE_ENDIAN);
                }
                pipeline.publishBatch(filter, Operation.STREAM, bytes, offsets, lengths, 0, n, from);
            }
        }
    }

    private static void fill(final byte[] element, final long key)
    {
        for (int b = 0; b < 8; b++)
        {
            element[b] = (byte)(key >>> (8 * b));
            element[8 + b] = (byte)(~key >>> (8 * b));
        }
    }
}
