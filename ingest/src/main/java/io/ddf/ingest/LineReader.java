package io.ddf.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into records, one per line, without allocating per record.
 *
 * <p>A record is the bytes between two newlines ({@code \n}); a {@code \r} before the newline is part of the
 * record, and a last line without a newline is a record too. Records are reported as a range of
 * {@link #buffer()}, valid until the next call to {@link #fill()}. The buffer grows to hold a line longer than it.
 *
 * <p>{@link #next()} never reads: it yields what is buffered, and {@link #fill()} reads more, so the caller
 * decides what to do before a read that may block.
 */
final class LineReader
{
    /** Largest buffer a Java array allows, in practice. */
    private static final int MAX_CAPACITY = Integer.MAX_VALUE - 16;

    private final InputStream in;
    private byte[] buffer;
    private int position;
    private int limit;
    private int scan;
    private boolean endOfInput;
    private int start;
    private int length;

    /**
     * @param in       the input.
     * @param capacity initial buffer size in bytes, at least 1.
     */
    LineReader(final InputStream in, final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.in = in;
        this.buffer = new byte[capacity];
    }

    /**
     * Advances to the next record already buffered.
     *
     * @return true with the record in {@link #buffer()} at {@link #start()}, {@link #length()} bytes; false when
     * no whole record is buffered: {@link #fill()} more, unless {@link #atEnd()}.
     */
    boolean next()
    {
        final byte[] b = buffer;
        for (int i = scan; i < limit; i++)
        {
            if (b[i] == '\n')
            {
                start = position;
                length = i - position;
                position = i + 1;
                scan = position;
                return true;
            }
        }
        scan = limit;
        if (endOfInput && position < limit)
        {
            start = position;
            length = limit - position;
            position = limit;
            return true;
        }
        return false;
    }

    /** @return true once the input has ended and every record has been yielded. */
    boolean atEnd()
    {
        return endOfInput && position == limit;
    }

    /** @return whether the input has bytes that can be read now without blocking. */
    boolean inputReady()
    {
        try
        {
            return in.available() > 0;
        }
        catch (final IOException e)
        {
            return false;
        }
    }

    /**
     * Reads more input, after moving the unfinished line to the front of the buffer and growing the buffer if
     * that line fills it. May block.
     *
     * @throws IOException when reading fails or a line exceeds the largest possible buffer.
     */
    void fill() throws IOException
    {
        if (endOfInput)
        {
            return;
        }
        if (position > 0)
        {
            System.arraycopy(buffer, position, buffer, 0, limit - position);
            limit -= position;
            scan -= position;
            position = 0;
        }
        if (limit == buffer.length)
        {
            grow();
        }
        final int n = in.read(buffer, limit, buffer.length - limit);
        if (n < 0)
        {
            endOfInput = true;
        }
        else
        {
            limit += n;
        }
    }

    private void grow() throws IOException
    {
        if (buffer.length >= MAX_CAPACITY)
        {
            throw new IOException("a line is longer than " + MAX_CAPACITY + " bytes");
        }
        final int capacity = (int)Math.min(MAX_CAPACITY, 2L * buffer.length);
        buffer = Arrays.copyOf(buffer, capacity);
    }

    /** @return the buffer holding the current record. */
    byte[] buffer()
    {
        return buffer;
    }

    /** @return offset of the current record's first byte. */
    int start()
    {
        return start;
    }

    /** @return length of the current record in bytes, without its newline. */
    int length()
    {
        return length;
    }
}
