package io.ddf.ingest;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code ddf pipe ... | head}: when the reader goes away, ddf stops quietly with status 141. */
class BrokenPipeTest
{
    @Test
    void aReaderThatGoesAwayEndsThePipeQuietly()
    {
        final StringBuilder input = new StringBuilder();
        for (int i = 0; i < 200_000; i++)
        {
            input.append("line-").append(i).append('\n');
        }
        final OutputStream closedAfterALittle = new OutputStream()
        {
            private int written;

            @Override
            public void write(final int b) throws IOException
            {
                if (++written > 1000)
                {
                    throw new IOException("Broken pipe");
                }
            }
        };
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = Main.run(new ByteArrayInputStream(input.toString().getBytes(StandardCharsets.UTF_8)),
            closedAfterALittle, err, "pipe", "--filter", "qht", "--memory-bits", "1048576");
        assertEquals(ErrorHandling.BROKEN_PIPE, status);
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }
}
