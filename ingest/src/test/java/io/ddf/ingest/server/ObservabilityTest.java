package io.ddf.ingest.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** INFO's commandstats, memory and persistence sections, and the log line per filter created, deleted or refused. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ObservabilityTest
{
    @TempDir
    Path dir;

    private static long number(final String text, final String regex)
    {
        final Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), () -> regex + " not in:\n" + text);
        return Long.parseLong(m.group(1));
    }

    @Test
    void infoCountsEveryCommandAndReportsMemoryAndPersistence() throws IOException
    {
        // the log lines and figures of ddf's fixed-size filters (--past-capacity forget)
        try (TestServer server = new TestServer(dir.resolve("data"), TestServer::forget);
             RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "k", "0.01", "1000"));
            c.call("BF.ADD", "k", "a");
            c.call("BF.ADD", "k", "a");
            c.call("BF.MADD", "k", "b", "c");
            c.call("BF.ADD", "k");                       // wrong arity: rejected, not run
            c.call("BF.INFO", "missing");                // runs and fails
            final String info = (String)c.call("INFO", "everything"); // commandstats is not in a bare INFO, as in Redis
            assertTrue(!((String)c.call("INFO")).contains("# Commandstats"));
            assertTrue(info.contains("# Commandstats\r\n"), info);
            assertEquals(2, number(info, "cmdstat_bf\\.add:calls=(\\d+),"));
            assertEquals(1, number(info, "cmdstat_bf\\.madd:calls=(\\d+),"));
            assertEquals(1, number(info, "cmdstat_bf\\.reserve:calls=(\\d+),"));
            assertEquals(1, number(info, "cmdstat_bf\\.add:calls=\\d+,usec=\\d+,usec_per_call=[\\d.]+," +
                "rejected_calls=(\\d+),"));
            assertEquals(1, number(info, "cmdstat_bf\\.info:calls=\\d+,usec=\\d+,usec_per_call=[\\d.]+," +
                "rejected_calls=\\d+,failed_calls=(\\d+)"));
            assertTrue(!info.contains("cmdstat_bf.card:"), "a command never sent has no line, as in Redis");

            assertTrue(info.contains("# Memory\r\n"), info);
            final long heap = number(info, "used_memory_heap:(\\d+)\r\n");
            final long mapped = number(info, "used_memory_mapped:(\\d+)\r\n");
            assertTrue(heap > 0, info);
            assertTrue(mapped >= 1000, "a filter of capacity 1000 maps at least a bit per item: " + mapped);
            assertEquals(heap + mapped, number(info, "used_memory:(\\d+)\r\n"));
            assertTrue(number(info, "maxmemory:(\\d+)\r\n") >= 0);

            assertTrue(info.contains("# Persistence\r\n"), info);
            assertEquals(0, number(info, "loading:(\\d+)\r\n"));
            // the default --fsync everysec writes through the data directory's change log, ddf's AOF (issue 31)
            assertEquals(1, number(info, "aof_enabled:(\\d+)\r\n"));
            assertTrue(info.contains("aof_last_write_status:ok\r\n"), info);
            assertTrue(number(info, "ddf_log_bytes:(\\d+)\r\n") > 0, info);
            assertEquals(1, number(info, "ddf_filter_files:(\\d+)\r\n"));
            assertEquals(mapped, number(info, "ddf_filter_file_bytes:(\\d+)\r\n"));

            // CONFIG RESETSTAT starts the command statistics again, as in Redis
            assertEquals("OK", c.call("CONFIG", "RESETSTAT"));
            final String after = (String)c.call("INFO", "commandstats");
            assertTrue(!after.contains("cmdstat_bf.add:"), after);
            assertEquals(1, number(after, "cmdstat_config:calls=(\\d+),"));
        }
    }

    @Test
    void logsEveryFilterCreatedDeletedOrRefused() throws IOException
    {
        // the log lines and figures of ddf's fixed-size filters (--past-capacity forget)
        try (TestServer server = new TestServer(dir.resolve("data"), TestServer::forget);
             RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "made", "0.01", "1000"));
            assertEquals(1L, c.call("BF.ADD", "auto", "x"));
            assertTrue(((String)c.call("BF.RESERVE", "made", "0.01", "1000")).startsWith("-ERR item exists"));
            assertTrue(((String)c.call("BF.RESERVE", "odd", "0.01", "1000", "KIND", "nope")).startsWith("-ERR"));
            assertEquals(1L, c.call("DEL", "made"));
            final String log = server.log();
            assertTrue(log.matches("(?s).*ddf: created filter 'made' \\(fifo-bloom, \\d+ bytes, capacity 1000\\).*"),
                log);
            assertTrue(log.matches("(?s).*ddf: created filter 'auto' \\(fifo-bloom, \\d+ bytes, capacity " +
                server.config.capacityOfMissingKeys(false) + "\\).*"), log);
            assertTrue(log.contains("ddf: refused filter 'made': item exists"), log);
            assertTrue(log.matches("(?s).*ddf: refused filter 'odd': ERR .*nope.*"), log);
            assertTrue(log.matches("(?s).*ddf: deleted filter 'made' \\(fifo-bloom, \\d+ bytes\\).*"), log);
        }
    }
}
