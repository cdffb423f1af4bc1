package io.ddf.engine.pipeline;

import io.ddf.engine.Operation;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One preallocated ring slot. The publisher writes the element and its routing inputs; the hasher owning the
 * slot's sequence writes {@link #hash} and {@link #inserter}; the owning inserter writes {@link #verdict}; a
 * failing stage writes {@link #failure}. Each field has one writer at a time, and the Disruptor's sequences order
 * the stages, so plain fields suffice.
 */
final class PipelineEvent
{
    /** Extra bytes after the element, so that neighbouring slots written by different threads share no line. */
    private static final int PAD = 64;

    /** The element's bytes (the first {@link #length}), copied at publication. */
    final byte[] bytes;
    /** A view of {@link #bytes} for {@code DuplicateFilter.hash(DirectBuffer, ...)}. */
    final UnsafeBuffer buffer;

    int length;
    DuplicateFilter filter;
    Operation operation;
    long tag;
    long hash;
    /** Whether {@link #hash} was computed at publication ({@code FilterPipelineBuilder.hashOnPublish}). */
    boolean hashed;
    int inserter;
    Verdict verdict;
    Throwable failure;
    /**
     * Elements packed in this slot ({@code FilterPipelineBuilder.longsPerSlot}): {@link #longs}[0, count) with tags
     * {@link #tag} + i, their verdicts in {@link #duplicates}; 0 for a slot holding one element in {@link #bytes}.
     */
    int count;
    /** The packed elements, or null when the pipeline does not pack. */
    final long[] longs;
    /** Whether the packed {@link #longs} are the elements' hashes ({@code FilterPipeline.publishHashes}). */
    boolean hashes;
    /** The packed elements' verdicts, or null when the pipeline does not pack. */
    final boolean[] duplicates;

    PipelineEvent(final int maxElementBytes, final int longsPerSlot)
    {
        this.bytes = new byte[maxElementBytes + PAD];
        this.buffer = new UnsafeBuffer(bytes, 0, maxElementBytes);
        this.longs = longsPerSlot > 1 ? new long[longsPerSlot] : null;
        this.duplicates = longsPerSlot > 1 ? new boolean[longsPerSlot] : null;
    }
}
