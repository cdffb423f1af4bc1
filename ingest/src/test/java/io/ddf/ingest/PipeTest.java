package io.ddf.ingest;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The streaming loop, against an exact stand-in filter. */
class PipeTest
{
    @Test
    void verdictPerRecordInOrder() throws IOException
    {
        assertEquals("U\nU\nD\nU\nD\nU\n", pipe("a\nb\na\na\r\na\r\n\n", false));
    }

    @Test
    void lastLineWithoutNewlineCounts() throws IOException
    {
        assertEquals("U\nD\n", pipe("x\nx", false));
    }

    @Test
    void uniqueWritesUnseenRecordsExactly() throws IOException
    {
        assertEquals("a\nb\r\n\nc\n", pipe("a\nb\r\na\n\nb\r\n\nc", true));
    }

    @Test
    void flushesWhenTheInputStalls() throws IOException
    {
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        final List<String> seenBeforeRead = new ArrayList<>();
        final InputStream slow = new InputStream()
        {
            private final String[] chunks = {"a\nb\n", "a\n"};
            private int next;

            @Override
            public int read()
            {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(final byte[] b, final int off, final int len)
            {
                seenBeforeRead.add(sink.toString(StandardCharsets.US_ASCII));
                if (next == chunks.length)
                {
                    return -1;
                }
                final byte[] chunk = chunks[next++].getBytes(StandardCharsets.US_ASCII);
                System.arraycopy(chunk, 0, b, off, chunk.length);
                return chunk.length;
            }

            @Override
            public int available()
            {
                return 0;
            }
        };
        final ExactFilter filter = new ExactFilter();
        final LineWriter writer = new LineWriter(sink, 1 << 16);
        try (FilterGuard guard = new FilterGuard(filter, writer, false))
        {
            new Pipe(new LineReader(slow, 1024), writer, false).run(guard);
        }
        assertEquals(List.of("", "U\nU\n", "U\nU\nD\n"), seenBeforeRead);
        assertEquals("U\nU\nD\n", sink.toString(StandardCharsets.US_ASCII));
        assertEquals(1, filter.closes());
    }

    @Test
    void stopsOnceTheGuardIsClosed() throws IOException
    {
        final ExactFilter filter = new ExactFilter();
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        final LineWriter writer = new LineWriter(sink, 64);
        final FilterGuard guard = new FilterGuard(filter, writer, false);
        guard.close();
        final long records = new Pipe(new LineReader(stream("a\nb\n"), 64), writer, false).run(guard);
        assertEquals(0, records);
        assertEquals(0, filter.elements());
        guard.close();
        assertEquals(1, filter.closes());
    }

    @Test
    void countsRecordsOfALargeInput() throws IOException
    {
        final long seed = TestSeed.seed();
        final java.util.Random random = new java.util.Random(seed);
        final StringBuilder in = new StringBuilder();
        final int lines = 50_000;
        for (int i = 0; i < lines; i++)
        {
            in.append(random.nextInt(10_000)).append('\n');
        }
        final String out = pipe(in.toString(), false);
        assertEquals(2 * lines, out.length());
    }

    private static String pipe(final String input, final boolean unique) throws IOException
    {
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        final LineWriter writer = new LineWriter(sink, 8);
        final ExactFilter filter = new ExactFilter();
        try (FilterGuard guard = new FilterGuard(filter, writer, false))
        {
            final long records = new Pipe(new LineReader(stream(input), 4), writer, unique).run(guard);
            assertEquals(filter.elements(), records);
        }
        assertEquals(1, filter.closes());
        return sink.toString(StandardCharsets.UTF_8);
    }

    private static InputStream stream(final String text)
    {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
