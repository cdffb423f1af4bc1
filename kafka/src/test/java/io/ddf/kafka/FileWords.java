package io.ddf.kafka;

import io.ddf.persistence.FilterFileDescriptor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A filter file's mutable words read from its bytes on disk (the page cache), independently of the store's own
 * bookkeeping: word i is the file's bytes [1024 + 8i, 1032 + 8i).
 */
final class FileWords
{
    private FileWords()
    {
    }

    static long[] read(final Path file)
    {
        try
        {
            final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
            final long[] words = new long[(bytes.capacity() - FilterFileDescriptor.STATE_OFFSET) / Long.BYTES];
            for (int i = 0; i < words.length; i++)
            {
                words[i] = bytes.getLong(FilterFileDescriptor.STATE_OFFSET + i * Long.BYTES);
            }
            return words;
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the table's words only (after the state region and the rest of the header page). */
    static long[] table(final long[] words)
    {
        final int first = (FilterFileDescriptor.HEADER_LENGTH - FilterFileDescriptor.STATE_OFFSET) / Long.BYTES;
        return Arrays.copyOfRange(words, first, words.length);
    }

    /** @return the first word index of the table. */
    static int firstTableWord()
    {
        return (FilterFileDescriptor.HEADER_LENGTH - FilterFileDescriptor.STATE_OFFSET) / Long.BYTES;
    }
}
