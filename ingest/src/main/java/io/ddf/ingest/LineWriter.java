package io.ddf.ingest;

import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;

/** Buffers output lines and writes them to a stream in large blocks, without allocating per line. */
final class LineWriter implements Flushable
{
    private final OutputStream out;
    private final byte[] buffer;
    /** Runs before any output leaves the buffer (sync policy always: the verdicts' changes first reach the device). */
    private final Runnable beforeOutput;
    private int position;

    /**
     * @param out      where lines go.
     * @param capacity buffer size in bytes, at least 2.
     */
    LineWriter(final OutputStream out, final int capacity)
    {
        this(out, capacity, () -> { });
    }

    /**
     * @param out          where the lines go.
     * @param capacity     buffer size in bytes, at least 2.
     * @param beforeOutput runs before any buffered output is written to {@code out}, once per write.
     */
    LineWriter(final OutputStream out, final int capacity, final Runnable beforeOutput)
    {
        if (capacity < 2)
        {
            throw new IllegalArgumentException("capacity must be at least 2, got " + capacity);
        }
        this.out = out;
        this.buffer = new byte[capacity];
        this.beforeOutput = beforeOutput;
    }

    /**
     * Writes one byte and a newline.
     *
     * @param b the byte.
     * @throws IOException when writing fails.
     */
    void line(final byte b) throws IOException
    {
        if (buffer.length - position < 2)
        {
            drain();
        }
        buffer[position++] = b;
        buffer[position++] = '\n';
    }

    /**
     * Writes bytes and a newline.
     *
     * @param bytes  holds the line.
     * @param offset of its first byte.
     * @param length of the line, without newline.
     * @throws IOException when writing fails.
     */
    void line(final byte[] bytes, final int offset, final int length) throws IOException
    {
        if (buffer.length - position <= length)
        {
            drain();
            if (length >= buffer.length)
            {
                beforeOutput.run();
                out.write(bytes, offset, length);
                buffer[position++] = '\n';
                return;
            }
        }
        System.arraycopy(bytes, offset, buffer, position, length);
        position += length;
        buffer[position++] = '\n';
    }

    /** Writes what is buffered and flushes the stream. */
    @Override
    public void flush() throws IOException
    {
        drain();
        out.flush();
    }

    private void drain() throws IOException
    {
        if (position > 0)
        {
            beforeOutput.run();
            out.write(buffer, 0, position);
            position = 0;
        }
    }
}
