package io.ddf.ingest.server;

import io.ddf.engine.SyncPolicy;
import io.ddf.ingest.config.ServerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon through its data directory's change log (issue 31), in process: a log that cannot be written refuses
 * writes with Redis's {@code MISCONF} naming the data directory while reads go on, and writes resume once it can be
 * written again, nothing acknowledged lost; checkpoints run on their schedule and drop the log before them; INFO
 * persistence and the metrics endpoint say so. The failing log is injected by taking the name of its next segment
 * file (its creation then fails as on a full disk: the same path, {@code LogUnavailableException}); kill -9 and power
 * cuts are {@link DaemonLogIT}'s and {@link DaemonPowerCutIT}'s.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChangeLogDaemonTest
{
    /** Small segments, so that the load crosses several (64 KiB: 2,048 records). */
    private static final long SEGMENT = 64 << 10;
    private static final int BATCH = 200;

    @TempDir
    Path dir;

    private static String info(final RespClient c) throws IOException
    {
        return (String)c.call("INFO", "persistence");
    }

    private static String field(final String info, final String name)
    {
        final Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + ":(.*?)\r?$").matcher(info);
        assertTrue(m.find(), () -> "INFO persistence has no " + name + ":\n" + info);
        return m.group(1);
    }

    private static long number(final String info, final String name)
    {
        return Long.parseLong(field(info, name));
    }

    /** BF.MADD of {@link #BATCH} new items; returns the reply (a list, or an error's text). */
    private static Object madd(final RespClient c, final String key, final int from)
        throws IOException
    {
        return madd(c, key, from, BATCH);
    }

    private static Object madd(final RespClient c, final String key, final int from, final int count)
        throws IOException
    {
        final List<String> args = new ArrayList<>(List.of("BF.MADD", key));
        for (int i = 0; i < count; i++)
        {
            args.add("item-" + (from + i));
        }
        return c.call(args.toArray(new String[0]));
    }

    /** The start position of the last segment file of the log, from its name. */
    private static long lastSegment(final Path log) throws IOException
    {
        try (Stream<Path> files = Files.list(log))
        {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".ddflog"))
                .mapToLong(n -> Long.parseLong(n.substring(0, n.length() - ".ddflog".length()), 16)).max()
                .orElseThrow();
        }
    }

    private static void awaitLog(final TestServer server, final String text) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!server.log().contains(text) && System.nanoTime() < deadline)
        {
            Thread.sleep(20);
        }
        assertTrue(server.log().contains(text), server.log());
    }

    private static void configure(final ServerConfig c, final SyncPolicy policy)
    {
        TestServer.forget(c); // ddf's fixed-size filter: written through the log by the engine today
        c.fsync = policy;
        c.logSegmentBytes = SEGMENT;
    }

    @ParameterizedTest
    @EnumSource(value = SyncPolicy.class, names = {"EVERYSEC", "ALWAYS"})
    void writesAreRefusedWhileTheLogCannotBeWrittenReadsGoOnAndWritesResume(final SyncPolicy policy)
        throws Exception
    {
        try (TestServer server = new TestServer(dir, c -> configure(c, policy));
             RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "f", "0.01", "1000000"));
            assertEquals(1L, c.call("BF.ADD", "f", "first"));
            final Path log = dir.resolve("log");
            // the segment after the last one made cannot be made: as a full disk refuses it
            final Path blocked = log.resolve(String.format("%016x.ddflog", lastSegment(log) + SEGMENT));
            Files.createDirectory(blocked);
            Files.writeString(blocked.resolve("taken"), "the disk is full");
            int next = 0;
            int acknowledged = 0;
            Object reply = null;
            for (int round = 0; round < 40 * SEGMENT / 32 / BATCH; round++)
            {
                reply = madd(c, "f", next);
                if (!(reply instanceof List<?> verdicts))
                {
                    break;
                }
                // a BF.MADD that meets the failure midway answers its items judged before it and the refusal in the
                // places after it: only the judged ones are acknowledged
                int judged = 0;
                while (judged < verdicts.size() && verdicts.get(judged) instanceof Long)
                {
                    judged++;
                }
                acknowledged = next + judged;
                next += BATCH;
                if (judged < verdicts.size())
                {
                    reply = verdicts.get(judged);
                    break;
                }
            }
            final String expected = "-MISCONF Errors writing to the change log of data directory " + dir;
            assertTrue(String.valueOf(reply).startsWith(expected), "refused naming the data directory: " + reply);
            assertTrue(String.valueOf(reply).contains("segment"), "and why: " + reply);
            // every write is refused now, in a MULTI too; reads go on
            assertTrue(String.valueOf(c.call("BF.ADD", "f", "refused")).startsWith(expected));
            assertEquals(List.of(1L, 1L), c.call("BF.MEXISTS", "f", "first", "item-0"));
            assertEquals(0L, c.call("BF.EXISTS", "f", "refused"));
            assertTrue(String.valueOf(c.call("BF.RESERVE", "g", "0.01", "1000")).startsWith(expected));
            assertEquals("OK", c.call("MULTI"));
            assertTrue(String.valueOf(c.call("BF.ADD", "f", "in-multi")).startsWith(expected));
            final Object exec = c.call("EXEC");
            assertTrue(String.valueOf(exec).startsWith("-EXECABORT"), "EXEC: " + exec);
            final String failing = info(c);
            assertEquals("err", field(failing, "aof_last_write_status"));
            assertTrue(field(failing, "ddf_log_write_error").startsWith("MISCONF"), failing);
            awaitLog(server, "writes are refused (MISCONF)"); // said by the log's thread, which retries

            // the disk has room again: writes resume once every filter is checkpointed
            Files.delete(blocked.resolve("taken"));
            Files.delete(blocked);
            final long deadline = System.nanoTime() + 20_000_000_000L;
            Object resumed = c.call("BF.ADD", "f", "after");
            while (!(resumed instanceof Long) && System.nanoTime() < deadline)
            {
                Thread.sleep(50);
                resumed = c.call("BF.ADD", "f", "after");
            }
            assertEquals(1L, resumed, "writes resume");
            final String ok = info(c);
            assertEquals("ok", field(ok, "aof_last_write_status"));
            assertEquals("", field(ok, "ddf_log_write_error"));
            awaitLog(server, "can be written again and every filter was checkpointed");
            assertTrue(number(ok, "ddf_checkpoints") >= 1, ok);
            // more than a segment of writes after it: the log goes on past the segment that was refused
            for (int round = 0; round < 3 * SEGMENT / 32 / BATCH; round++)
            {
                assertTrue(madd(c, "f", next) instanceof List);
                next += BATCH;
            }
            assertTrue(acknowledged > 0, "some writes were acknowledged before the failure");
            for (int i = 0; i < acknowledged; i += BATCH)
            {
                final List<String> args = new ArrayList<>(List.of("BF.MEXISTS", "f"));
                for (int j = i; j < Math.min(acknowledged, i + BATCH); j++)
                {
                    args.add("item-" + j);
                }
                for (final Object present : (List<?>)c.call(args.toArray(new String[0])))
                {
                    assertEquals(1L, present, "acknowledged before the failure, present after it");
                }
            }
        }
    }

    /**
     * One BF.MADD long enough to reach a segment that cannot be made: the refusal is checked as a command starts, so
     * this one meets the failure midway, on its own append (deterministic: the segment blocked is the one after the
     * segment made ahead, which the log tries only once the writes enter that one). Its reply is whole: the verdicts
     * of the items judged, then the refusal in the place of each item not judged (as RedisBloom answers the items a
     * full filter refuses); the connection goes on, reads answer, writes are refused. Before, the reply waited for
     * verdicts that never came, and every later reply of the connection behind it (CI, 2026-11-30: a read timed out),
     * inline and through the pipeline alike (there the failed element reached no one: VerdictRouter.onError).
     */
    @ParameterizedTest
    @EnumSource(value = SyncPolicy.class, names = {"EVERYSEC", "ALWAYS"})
    void aWriteThatMeetsTheFailureMidwayGetsAWholeReply(final SyncPolicy policy) throws Exception
    {
        try (TestServer server = new TestServer(dir, c -> configure(c, policy));
             RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "f", "0.01", "1000000"));
            assertEquals(1L, c.call("BF.ADD", "f", "first"));
            final Path log = dir.resolve("log");
            final Path blocked = log.resolve(String.format("%016x.ddflog", 2 * SEGMENT));
            Files.createDirectory(blocked);
            Files.writeString(blocked.resolve("taken"), "the disk is full");
            final int items = (int)(3 * SEGMENT / 32); // more than the first two segments hold
            final Object reply = madd(c, "f", 0, items);
            assertTrue(reply instanceof List, "an array: " + reply);
            final List<?> places = (List<?>)reply;
            assertEquals(items, places.size());
            int judged = 0;
            while (judged < items && places.get(judged) instanceof Long)
            {
                judged++;
            }
            assertTrue(judged >= SEGMENT / 32 && judged < items, judged + " items judged of " + items);
            // inline (the default) and through the pipeline (--execution pipeline) alike, the refusal naming the data
            // directory, whichever thread met the failure first (before, the pipeline's said the failure's own words,
            // and so did an inline reply that came before the log's thread had told the refusal: CI, 2026-11-30)
            final String refusal = "-MISCONF Errors writing to the change log of data directory " + dir;
            for (int i = judged; i < items; i++)
            {
                assertTrue(String.valueOf(places.get(i)).startsWith(refusal), "item " + i + ": " + places.get(i));
            }
            // the connection goes on: the items judged are there, writes are refused, reads answer
            final List<String> exists = new ArrayList<>(List.of("BF.MEXISTS", "f"));
            for (int i = 0; i < judged; i++)
            {
                exists.add("item-" + i);
            }
            for (final Object present : (List<?>)c.call(exists.toArray(new String[0])))
            {
                assertEquals(1L, present);
            }
            assertTrue(String.valueOf(c.call("BF.ADD", "f", "refused")).startsWith("-MISCONF Errors writing to the " +
                "change log of data directory " + dir));
            assertEquals("PONG", c.call("PING"));
        }
    }

    @Test
    void theDefaultsAreServesOwn()
    {
        assertEquals(ServerConfig.DEFAULT_CHECKPOINT_SECONDS,
            io.ddf.ingest.durability.Durability.DEFAULT_CHECKPOINT_SECONDS);
        assertEquals(ServerConfig.DEFAULT_CHECKPOINT_LOG_BYTES,
            io.ddf.ingest.durability.Durability.DEFAULT_CHECKPOINT_BYTES);
    }

    @Test
    void checkpointsRunOnTheirScheduleDropTheLogAndAreReported() throws Exception
    {
        try (TestServer server = new TestServer(dir, c ->
        {
            configure(c, SyncPolicy.EVERYSEC); // the production default, with a short period for the test
            c.checkpointSeconds = 1;
            c.metricsPort = 0;
        });
             RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "f", "0.01", "1000000"));
            final String fresh = info(c);
            assertEquals("1", field(fresh, "aof_enabled"));
            assertEquals("everysec", field(fresh, "ddf_fsync"));
            assertEquals(dir.resolve("log").toString(), field(fresh, "ddf_log_dir"));
            int next = 0;
            // ten segments of records, spread over more than two checkpoint periods
            final long end = System.nanoTime() + 2_500_000_000L;
            while (next < 10 * SEGMENT / 32 || System.nanoTime() < end)
            {
                assertTrue(madd(c, "f", next) instanceof List);
                next += BATCH;
                if (next >= 10 * SEGMENT / 32)
                {
                    Thread.sleep(20);
                }
            }
            // the load is over: the next round of checkpoints passes its end and drops the log before it
            final long loaded = number(info(c), "ddf_log_appended");
            final long deadline = System.nanoTime() + 20_000_000_000L;
            String now = info(c);
            while ((number(now, "ddf_checkpoint_position") < loaded || number(now, "ddf_log_forces") == 0) &&
                System.nanoTime() < deadline)
            {
                Thread.sleep(100);
                now = info(c);
            }
            assertTrue(number(now, "ddf_checkpoints") >= 2, now);
            assertTrue(number(now, "ddf_log_segments_dropped") >= 1, "the log before the checkpoints is dropped: " +
                now);
            assertTrue(number(now, "ddf_checkpoint_position") >= loaded, "a checkpoint after the load: " + now);
            // the segment the checkpoint is in and the one made ahead of it, of the ten or more written
            assertTrue(number(now, "ddf_log_segments") <= 3, "the log stays bounded: " + now);
            assertTrue(number(now, "ddf_last_checkpoint_time") * 1000 > System.currentTimeMillis() - 60_000, now);
            assertTrue(Double.parseDouble(field(now, "ddf_last_checkpoint_ms")) >= 0, now);
            assertTrue(number(now, "ddf_log_forces") >= 1, "forced once a second: " + now);
            assertTrue(number(now, "ddf_log_records_since_checkpoint") < next, now);
            assertEquals(0, number(now, "ddf_checkpoint_failures"), now);
            assertEquals("ok", field(now, "aof_last_write_status"));

            final String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + server.server.metricsPort() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
            for (final String series : List.of("ddf_log_bytes ", "ddf_log_records_since_checkpoint ",
                "ddf_log_fsyncs_total ", "ddf_log_last_fsync_seconds ", "ddf_checkpoints_total ",
                "ddf_last_checkpoint_timestamp_seconds ", "ddf_last_checkpoint_duration_seconds ",
                "ddf_replayed_records ", "ddf_log_writable 1"))
            {
                assertTrue(metrics.contains("\n" + series), series + " in:\n" + metrics);
            }
        }
    }
}
