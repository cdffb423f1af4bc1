package io.ddf.kafka.app;

import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.kafka.ChangelogFormat;
import io.ddf.kafka.FilterSpec;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The application's command line and its JSON keys, without a broker. */
class KafkaDedupCommandTest
{
    private static String[] run(final String... args)
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = KafkaDedupCommand.commandLine(new PrintStream(err, true, StandardCharsets.UTF_8)).execute(args);
        return new String[] {Integer.toString(status), err.toString(StandardCharsets.UTF_8)};
    }

    private static final String[] COMMON = {"--bootstrap-server", "127.0.0.1:1", "--input", "in", "--output", "out"};

    private static String[] with(final String... more)
    {
        final String[] all = new String[COMMON.length + more.length];
        System.arraycopy(COMMON, 0, all, 0, COMMON.length);
        System.arraycopy(more, 0, all, COMMON.length, more.length);
        return all;
    }

    @Test
    void badUsageExitsTwoWithOneLine()
    {
        final String[] wrongParameter = run(with("--filter", "qht", "--window", "5"));
        assertEquals("2", wrongParameter[0]);
        assertEquals("ddf: ddf store 'ddf-dedup' (qht --window 5): --window is not a parameter of qht (it takes " +
            "--rows, --buckets, --fingerprint-bits, --memory-bits)\n", wrongParameter[1]);
        final String[] file = run(with("--filter", "qht", "--file", "/tmp/x.ddf"));
        assertEquals("2", file[0]);
        assertTrue(file[1].startsWith("ddf: --file has no meaning for kafka-dedup"), file[1]);
        final String[] keyed = run(with("--filter", "qht", "--keyed"));
        assertEquals("2", keyed[0]);
        assertTrue(keyed[1].contains("--keyed is not offered"), keyed[1]);
        final String[] guarantee = run(with("--filter", "qht", "--guarantee", "exactly_once"));
        assertEquals("2", guarantee[0]);
        assertTrue(guarantee[1].contains("--guarantee must be exactly_once_v2 or at_least_once"), guarantee[1]);
        final String[] missing = run("--filter", "qht");
        assertEquals("2", missing[0]);
        assertTrue(missing[1].contains("Missing required options"), missing[1]);
        final String[] hashes = run(with("--filter", "sbf", "--changelog-format", "hashes"));
        assertEquals("2", hashes[0]);
        assertTrue(hashes[1].contains("a changelog of hashes rebuilds only"), hashes[1]);
        final String[] format = run(with("--filter", "qht", "--changelog-format", "pages"));
        assertEquals("2", format[0]);
        assertTrue(format[1].contains("--changelog-format must be auto, hashes, calls, blocks or words, not pages"), format[1]);
        final String[] path = run(with("--filter", "qht", "--key", "id"));
        assertEquals("2", path[0]);
        assertTrue(path[1].contains("--key must be key, value, a JSON path"), path[1]);
    }

    /**
     * {@code --window 24h}: a fifo-bloom with a window of time, on event time (the records' timestamps), whose
     * changelog is its calls; the wall clock, other kinds with a time, and a changelog of calls without one are
     * refused.
     */
    @Test
    void aWindowOfTimeIsAFifoBloomOnEventTime()
    {
        final CommandLine line = KafkaDedupCommand.commandLine(new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8));
        line.parseArgs(with("--window", "24h", "--capacity", "1000000", "--target-fpr", "1e-9", "--subfilters", "4"));
        final FilterSpec spec = ((KafkaDedupCommand)line.getCommand()).spec();
        assertEquals(FilterKind.FIFO_BLOOM, spec.kind());
        assertTrue(spec.hasTimeWindow());
        final FilterParameters parameters = spec.validate("ddf-dedup");
        assertEquals(86_400_000L, parameters.get("window-ms"));
        assertEquals(4, parameters.get("slices"));
        assertEquals(1, parameters.get("time-source"), "event time");
        assertEquals(ChangelogFormat.CALLS, new io.ddf.kafka.DdfStoreBuilder("s", spec).withChangelogFormat(
            ChangelogFormat.CALLS).changelogFormat());
        final String[] qht = run(with("--filter", "qht", "--window", "24h"));
        assertEquals("2", qht[0]);
        assertTrue(qht[1].contains("--window with a time is fifo-bloom's"), qht[1]);
        final String[] wall = run(with("--window", "24h", "--time-source", "0"));
        assertEquals("2", wall[0]);
        assertTrue(wall[1].contains("runs on event time"), wall[1]);
        final String[] calls = run(with("--filter", "qht", "--changelog-format", "calls"));
        assertEquals("2", calls[0]);
        assertTrue(calls[1].contains("a changelog of calls is a fifo-bloom's with a window of time"), calls[1]);
        final String[] none = run(with("--capacity", "5"));
        assertEquals("2", none[0]);
        assertTrue(none[1].contains("give --filter KIND, or --window with a time"), none[1]);
    }

    @Test
    void jsonPathsAndPointersNameFields()
    {
        assertEquals("/user/ids/0", JsonPathKey.pointer("$.user.ids[0]").toString());
        assertEquals("/id", JsonPathKey.pointer("/id").toString());
        assertThrows(IllegalArgumentException.class, () -> JsonPathKey.pointer("$.a[x]"));
        final JsonPathKey id = new JsonPathKey("$.id");
        assertArrayEquals("a1".getBytes(StandardCharsets.UTF_8), id.apply(null, "{\"id\":\"a1\",\"n\":2}".getBytes(StandardCharsets.UTF_8)));
        assertArrayEquals("42".getBytes(StandardCharsets.UTF_8), id.apply(null, "{\"id\":42}".getBytes(StandardCharsets.UTF_8)));
        assertArrayEquals("{\"a\":1}".getBytes(StandardCharsets.UTF_8), id.apply(null, "{\"id\": {\"a\": 1}}".getBytes(StandardCharsets.UTF_8)));
        assertNull(id.apply(null, "{\"other\":1}".getBytes(StandardCharsets.UTF_8)), "no field: no key");
        assertNull(id.apply(null, "not json".getBytes(StandardCharsets.UTF_8)), "not JSON: no key");
        assertNull(id.apply(null, null));
        assertArrayEquals("x".getBytes(StandardCharsets.UTF_8), new JsonPathKey("$.u.ids[1]").apply(null,
            "{\"u\":{\"ids\":[\"w\",\"x\"]}}".getBytes(StandardCharsets.UTF_8)));
    }
}
