package io.ddf.bench.accuracy.stream;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Verdict;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The records of a file, one per line (the line's bytes without its {@code \n} or {@code \r\n}), fed to filters as
 * bytes. Keys are exact: each distinct record gets the next integer the first time it appears (a map from the
 * record's bytes), so the ground truth never confuses two records, at the cost of memory for every distinct record.
 */
public final class FileRecordStream implements ElementStream
{
    private final InputStream in;
    private final long keySpace;
    private final Map<Record, Long> ids = new HashMap<>();
    private long remaining;
    private byte[] buffer = new byte[256];
    private int length;
    private long current;

    /**
     * @param file     the file.
     * @param records  how many records it holds (from {@link #countRecords}), the bound on keys.
     * @param limit    at most this many records are read.
     */
    public FileRecordStream(final Path file, final long records, final long limit)
    {
        try
        {
            this.in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        this.keySpace = Math.max(1, records);
        this.remaining = Math.min(records, limit);
    }

    /**
     * @param file a file of newline-separated records.
     * @return the number of records (a last line without a newline counts).
     */
    public static long countRecords(final Path file)
    {
        long count = 0;
        boolean partial = false;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16))
        {
            int b;
            while ((b = in.read()) >= 0)
            {
                if (b == '\n')
                {
                    count++;
                    partial = false;
                }
                else
                {
                    partial = true;
                }
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return count + (partial ? 1 : 0);
    }

    @Override
    public boolean next()
    {
        if (remaining <= 0)
        {
            return false;
        }
        try
        {
            length = 0;
            int b;
            while ((b = in.read()) >= 0 && b != '\n')
            {
                if (length == buffer.length)
                {
                    buffer = Arrays.copyOf(buffer, buffer.length * 2);
                }
                buffer[length++] = (byte)b;
            }
            if (b < 0 && length == 0)
            {
                remaining = 0;
                return false;
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        if (length > 0 && buffer[length - 1] == '\r')
        {
            length--;
        }
        remaining--;
        final Record record = new Record(Arrays.copyOf(buffer, length));
        final Long id = ids.get(record);
        if (id == null)
        {
            current = ids.size();
            ids.put(record, current);
        }
        else
        {
            current = id;
        }
        return true;
    }

    @Override
    public long key()
    {
        return current;
    }

    @Override
    public long keySpace()
    {
        return keySpace;
    }

    @Override
    public Verdict feed(final DuplicateFilter filter)
    {
        return filter.stream(buffer, 0, length);
    }

    @Override
    public void close()
    {
        try
        {
            in.close();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** A record's bytes, compared by content. */
    private record Record(byte[] bytes)
    {
        @Override
        public boolean equals(final Object other)
        {
            return other instanceof Record r && Arrays.equals(bytes, r.bytes);
        }

        @Override
        public int hashCode()
        {
            return Arrays.hashCode(bytes);
        }

        @Override
        public String toString()
        {
            return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
