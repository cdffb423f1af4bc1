package io.ddf.ingest.resp;

import io.netty.buffer.ByteBuf;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A Netty buffer's bytes seen as an Agrona {@link DirectBuffer}, as the engine's hashing takes them: the buffer's heap
 * array or its direct memory where it has one, else a copy (a composite buffer). One per thread that uses it; what
 * {@link #of} returns is valid until its next call.
 */
public final class ByteView
{
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private byte[] copy = new byte[64];

    /**
     * @param buffer holds the bytes (not consumed).
     * @param index  of the first.
     * @param length how many.
     * @return the bytes, from offset 0 of the view.
     */
    public DirectBuffer of(final ByteBuf buffer, final int index, final int length)
    {
        if (buffer.hasArray())
        {
            view.wrap(buffer.array(), buffer.arrayOffset() + index, length);
        }
        else if (buffer.hasMemoryAddress())
        {
            view.wrap(buffer.memoryAddress() + index, length);
        }
        else
        {
            if (copy.length < length)
            {
                copy = new byte[Math.max(length, 2 * copy.length)];
            }
            buffer.getBytes(index, copy, 0, length);
            view.wrap(copy, 0, length);
        }
        return view;
    }
}
