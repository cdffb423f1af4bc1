package io.ddf.engine;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code stream} (one element or a batch) and {@code contains} allocate nothing once warm, in every form, for every
 * configuration; for a filter with a window of time also {@code stream} with the element's time, given a second apart
 * (the run crosses days: turns by time, expiries and seals).
 */
class HotPathAllocationTest extends EngineTestBase
{
    private static final int CALLS = 200_000;
    /** Slack for the measurement itself (the MXBean call, JIT activity charged to this thread). */
    private static final long SLACK_BYTES = 64 * 1024;

    static List<FilterConfigs.Config> configs()
    {
        return FilterConfigs.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void streamingAllocatesNothing(final FilterConfigs.Config config)
    {
        assertNothingAllocated(config, config.build(1 << 12, null));
    }

    @ParameterizedTest(name = "{0}, single-writer")
    @MethodSource("configs")
    void singleWriterStreamingAllocatesNothing(final FilterConfigs.Config config)
    {
        assertNothingAllocated(config, config.build(1 << 12, null).singleWriter());
    }

    private static void assertNothingAllocated(final FilterConfigs.Config config, final FilterBuilder builder)
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final byte[] bytes = new byte[16];
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(16));
        final StringBuilder text = new StringBuilder("element-000000");
        try (DuplicateFilter filter = builder.create())
        {
            final long[] time = {filter.timeWindow().isPresent() ? System.currentTimeMillis() : -1};
            run(filter, bytes, direct, text, time); // warm up: JIT, thread-local scratch, the thread's counter stripe
            run(filter, bytes, direct, text, time);
            final long before = threads.getCurrentThreadAllocatedBytes();
            final long sink = run(filter, bytes, direct, text, time);
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(allocated < SLACK_BYTES,
                config + ": " + allocated + " bytes allocated over " + 7L * CALLS + " calls (sink " + sink + ")");
        }
    }

    /** @param time the time to give the next element, moved on a second a call; -1: the filter takes no times. */
    private static long run(final DuplicateFilter filter, final byte[] bytes, final UnsafeBuffer direct,
        final StringBuilder text, final long[] time)
    {
        long sink = 0;
        final long[] batch = new long[64];
        final boolean[] verdicts = new boolean[64];
        for (int i = 0; i < CALLS; i++)
        {
            if ((i & 63) == 0)
            {
                for (int j = 0; j < batch.length; j++)
                {
                    batch[j] = i * 31L + j;
                }
                sink += filter.stream(batch, 0, batch.length, verdicts);
            }
            bytes[i & 15] = (byte)i;
            direct.putInt(0, i);
            text.setCharAt(8 + (i % 6), (char)('0' + i % 10));
            sink += filter.stream((long)i).ordinal();
            sink += filter.stream(bytes, 0, bytes.length).ordinal();
            sink += filter.stream(direct, 0, 16).ordinal();
            sink += filter.stream(text).ordinal();
            sink += filter.contains((long)i) ? 1 : 0;
            sink += filter.contains(bytes, 0, bytes.length) ? 1 : 0;
            sink += filter.contains(text) ? 1 : 0;
            if (time[0] >= 0)
            {
                time[0] += 1000;
                sink += filter.stream(i * 7L, time[0]).ordinal();
                sink += filter.stream(text, time[0]).ordinal();
            }
        }
        return sink;
    }
}
