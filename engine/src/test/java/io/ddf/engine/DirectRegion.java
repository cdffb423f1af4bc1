package io.ddf.engine;

import io.ddf.engine.memory.MappedWords;
import org.agrona.BufferUtil;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;

/**
 * Zeroed, cache-line-aligned direct memory standing in for a filter's mapped region, for tests that look inside a
 * core or one of its structures: the one aligned-memory harness of the engine's tests.
 */
public final class DirectRegion implements AutoCloseable
{
    private final ByteBuffer buffer;
    private final MappedWords words;

    /**
     * @param words size of the region in 64-bit words.
     * @return the region.
     */
    public static DirectRegion ofWords(final long words)
    {
        return new DirectRegion(words * Long.BYTES);
    }

    /**
     * @param bytes size of the region, a multiple of 8 (of 64 for a whole number of cache lines).
     */
    public DirectRegion(final long bytes)
    {
        this.buffer = BufferUtil.allocateDirectAligned(Math.toIntExact(bytes), 64);
        this.words = new MappedWords(BufferUtil.address(buffer), bytes / 8);
    }

    /** @return the region's words. */
    public MappedWords words()
    {
        return words;
    }

    /**
     * @param owned whether the view is owned (single-writer: plain loads and release stores).
     * @return a view of the region's words in that mode.
     */
    public MappedWords words(final boolean owned)
    {
        return new MappedWords(BufferUtil.address(buffer), words.words(), owned);
    }

    @Override
    public void close()
    {
        Reference.reachabilityFence(buffer); // the memory must outlive every use of the words
    }
}
