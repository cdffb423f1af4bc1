package io.ddf.ingest;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LineReaderTest
{
    @Test
    void splitsOnNewlineOnly()
    {
        assertEquals(List.of("a", "b\r", "", "c"), records("a\nb\r\n\nc\n", 64));
    }

    @Test
    void lastLineWithoutNewlineIsARecord()
    {
        assertEquals(List.of("a", "b"), records("a\nb", 64));
    }

    @Test
    void emptyInputHasNoRecords()
    {
        assertEquals(List.of(), records("", 64));
    }

    @Test
    void lonelyNewlineIsOneEmptyRecord()
    {
        assertEquals(List.of(""), records("\n", 64));
    }

    @Test
    void growsForLinesLongerThanTheBuffer()
    {
        final String longLine = "x".repeat(1000);
        assertEquals(List.of("ab", longLine, "c", longLine), records("ab\n" + longLine + "\nc\n" + longLine, 3));
    }

    @Test
    void bufferIsReusedWhileLinesFit() throws IOException
    {
        final LineReader reader = new LineReader(stream("a\nb\nc\n".repeat(100)), 16);
        final byte[] first = reader.buffer();
        while (!reader.atEnd())
        {
            while (reader.next())
            {
                assertSame(first, reader.buffer());
            }
            reader.fill();
        }
    }

    @Test
    void randomInputInRandomChunksSplitsLikeString()
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        for (int round = 0; round < 200; round++)
        {
            final StringBuilder sb = new StringBuilder();
            final int n = random.nextInt(50);
            for (int i = 0; i < n; i++)
            {
                sb.append("ab\r\n".charAt(random.nextInt(4)));
            }
            final String text = sb.toString();
            final List<String> expected = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
            if (text.isEmpty() || text.endsWith("\n"))
            {
                expected.remove(expected.size() - 1);
            }
            final InputStream chunky = new ChunkyStream(text.getBytes(StandardCharsets.UTF_8), random);
            assertEquals(expected, records(new LineReader(chunky, 1 + random.nextInt(8))), "input " + text);
        }
    }

    @Test
    void fillAfterEndDoesNothing() throws IOException
    {
        final LineReader reader = new LineReader(stream(""), 4);
        reader.fill();
        assertTrue(reader.atEnd());
        reader.fill();
        assertTrue(reader.atEnd());
        assertFalse(reader.next());
    }

    private static List<String> records(final String text, final int capacity)
    {
        return records(new LineReader(stream(text), capacity));
    }

    private static List<String> records(final LineReader reader)
    {
        final List<String> out = new ArrayList<>();
        try
        {
            while (!reader.atEnd())
            {
                while (reader.next())
                {
                    out.add(new String(reader.buffer(), reader.start(), reader.length(), StandardCharsets.UTF_8));
                }
                reader.fill();
            }
        }
        catch (final IOException e)
        {
            throw new AssertionError(e);
        }
        return out;
    }

    private static InputStream stream(final String text)
    {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Hands out its bytes a few at a time, as a pipe does. */
    private static final class ChunkyStream extends InputStream
    {
        private final byte[] bytes;
        private final Random random;
        private int position;

        ChunkyStream(final byte[] bytes, final Random random)
        {
            this.bytes = bytes;
            this.random = random;
        }

        @Override
        public int read()
        {
            return position < bytes.length ? bytes[position++] & 0xFF : -1;
        }

        @Override
        public int read(final byte[] b, final int off, final int len)
        {
            if (position == bytes.length)
            {
                return -1;
            }
            final int n = Math.min(Math.min(len, 1 + random.nextInt(5)), bytes.length - position);
            System.arraycopy(bytes, position, b, off, n);
            position += n;
            return n;
        }
    }
}
