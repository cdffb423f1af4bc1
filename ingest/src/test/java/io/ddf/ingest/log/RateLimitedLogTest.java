package io.ddf.ingest.log;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RateLimitedLogTest
{
    @Test
    void oneLinePerIntervalThenACountOfWhatWasHeldBack()
    {
        final List<String> lines = new ArrayList<>();
        final long[] now = {0};
        final RateLimitedLog log = new RateLimitedLog(lines::add, 10, () -> now[0]);
        for (int i = 0; i < 1000; i++)
        {
            log.log("closing " + i);
            now[0] += TimeUnit.MILLISECONDS.toNanos(5);
        }
        // 5 s of events at one per 5 ms: one line
        assertEquals(List.of("closing 0"), lines);
        now[0] += TimeUnit.SECONDS.toNanos(10);
        assertTrue(log.log("closing again"));
        assertEquals("closing again (and 999 more like it since the last such line)", lines.get(1));
        assertEquals(2, lines.size());
    }
}
