package io.ddf.ingest.feed;

import io.netty.buffer.ByteBuf;
import io.netty.util.ByteProcessor;

/**
 * Where the raw feed's records lie in its input: newline-delimited lines ({@code \r\n} or {@code \n} stripped), or
 * frames of a 4-byte big-endian length followed by the bytes; a record longer than {@code --max-item-bytes} is found
 * as soon as its first {@code max + 2} bytes (or its length) are read, not buffered whole.
 */
final class RecordFraming
{
    /** No complete record in the input yet. */
    static final int NONE = -1;
    /** The next record is longer than the longest allowed. */
    static final int TOO_LONG = -2;

    private final boolean frames;
    private final int maxRecord;
    /** Where the record {@link #next} found starts, and where the next one does. */
    private int start;
    private int end;

    /**
     * @param frames    length-prefixed frames rather than lines.
     * @param maxRecord the longest record.
     */
    RecordFraming(final boolean frames, final int maxRecord)
    {
        this.frames = frames;
        this.maxRecord = maxRecord;
    }

    /**
     * Finds the next complete record from the input's reader index (which it leaves where it was).
     *
     * @param in the input.
     * @return its length ({@link #start} and {@link #end} set), {@link #NONE} or {@link #TOO_LONG}.
     */
    int next(final ByteBuf in)
    {
        if (!in.isReadable())
        {
            return NONE;
        }
        final int from = in.readerIndex();
        final int readable = in.readableBytes();
        if (frames)
        {
            if (readable < Integer.BYTES)
            {
                return NONE;
            }
            final int length = in.getInt(from);
            if (length < 0 || length > maxRecord)
            {
                return TOO_LONG;
            }
            if (readable - Integer.BYTES < length)
            {
                return NONE;
            }
            start = from + Integer.BYTES;
            end = start + length;
            return length;
        }
        final int window = (int)Math.min(readable, maxRecord + 2L);
        final int lf = in.forEachByte(from, window, ByteProcessor.FIND_LF);
        if (lf < 0)
        {
            return window > maxRecord + 1 ? TOO_LONG : NONE;
        }
        int length = lf - from;
        if (length > 0 && in.getByte(lf - 1) == '\r')
        {
            length--;
        }
        if (length > maxRecord)
        {
            return TOO_LONG;
        }
        start = from;
        end = lf + 1;
        return length;
    }

    /** @return the index of the first byte of the record {@link #next} found. */
    int start()
    {
        return start;
    }

    /** @return the index after it and its delimiter: where the next record starts. */
    int end()
    {
        return end;
    }
}
