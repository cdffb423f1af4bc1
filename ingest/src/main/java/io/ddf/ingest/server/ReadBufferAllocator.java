package io.ddf.ingest.server;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;

/**
 * The daemon's connections' allocator: direct buffers — what the transport reads the socket into (and what a
 * request spanning several reads accumulates in), and what it copies a heap buffer into before writing it — come
 * from Netty's pool; heap buffers stay unpooled. A request a client abandons half-sent is held in the decoder's
 * cumulation until the connection closes, and {@code ByteToMessageDecoder} releases it then (and the input budget
 * closes a connection holding too much before that). The allocation profile of {@code BF.ADD -P 16} with every
 * buffer unpooled (async-profiler, {@code bench/profile-daemon.sh OUT ddf.jar alloc}) had all of the daemon's
 * remaining 14–20 bytes per command in the unpooled direct buffer of each socket read (the buffer, its
 * {@code DirectByteBuffer}, its Cleaner); the pool recycles them.
 */
final class ReadBufferAllocator extends AbstractByteBufAllocator
{
    private final ByteBufAllocator heap = new UnpooledByteBufAllocator(false);
    private final ByteBufAllocator pooled = PooledByteBufAllocator.DEFAULT;

    ReadBufferAllocator()
    {
        super(false); // buffer() is a heap buffer; ioBuffer() and directBuffer() pooled direct ones
    }

    @Override
    protected ByteBuf newHeapBuffer(final int initialCapacity, final int maxCapacity)
    {
        return heap.heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(final int initialCapacity, final int maxCapacity)
    {
        return pooled.directBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled()
    {
        return true;
    }
}
