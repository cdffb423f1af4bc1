package io.ddf.ingest;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LineWriterTest
{
    @Test
    void writesVerdictsAndLinesOfAnyLength() throws IOException
    {
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        final LineWriter writer = new LineWriter(sink, 4);
        final byte[] text = "0123456789".getBytes(StandardCharsets.US_ASCII);
        writer.line((byte)'U');
        writer.line(text, 2, 1);
        writer.line(text, 0, 10);
        writer.line((byte)'D');
        writer.line(text, 0, 0);
        writer.line(text, 5, 3);
        writer.flush();
        assertEquals("U\n2\n0123456789\nD\n\n567\n", sink.toString(StandardCharsets.US_ASCII));
    }

    /** Sync policy always: whatever leaves the buffer, its verdicts' changes are synced first. */
    @Test
    void theBarrierRunsBeforeEveryWrite() throws IOException
    {
        final StringBuilder events = new StringBuilder();
        final java.io.OutputStream sink = new java.io.OutputStream()
        {
            @Override
            public void write(final int b)
            {
                events.append('w');
            }

            @Override
            public void write(final byte[] b, final int off, final int len)
            {
                events.append("W").append(len);
            }
        };
        final LineWriter writer = new LineWriter(sink, 4, () -> events.append("|sync|"));
        final byte[] text = "0123456789".getBytes(StandardCharsets.US_ASCII);
        writer.line((byte)'U');
        writer.line((byte)'D'); // the buffer is full: the next line drains it
        writer.line((byte)'U');
        writer.line(text, 0, 10); // longer than the buffer: drained, then written directly
        writer.flush();
        assertEquals("|sync|W4|sync|W2|sync|W10|sync|W1", events.toString());
    }

    @Test
    void holdsOutputUntilFlushed() throws IOException
    {
        final ByteArrayOutputStream sink = new ByteArrayOutputStream();
        final LineWriter writer = new LineWriter(sink, 1024);
        writer.line((byte)'U');
        assertEquals(0, sink.size());
        writer.flush();
        assertEquals(2, sink.size());
    }
}
