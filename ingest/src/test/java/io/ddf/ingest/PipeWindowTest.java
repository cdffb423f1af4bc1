package io.ddf.ingest;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.TimeWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ddf pipe --window TIME}: a window of time as Redis and Kafka users write it, which means fifo-bloom; a
 * number keeps meaning a count window; a file whose window passed while it was closed says so before any verdict.
 */
class PipeWindowTest
{
    @TempDir
    Path dir;

    @Test
    void aWindowOfTimeAloneIsAFifoBloomThatRemembersEachLine()
    {
        final Cli.Result result = Cli.run("a\nb\na\nc\nb\nc\nd\n", "pipe", "--window", "24h", "--seed", "3");
        assertEquals(0, result.status(), result::toString);
        assertEquals(List.of("U", "U", "D", "U", "D", "D", "U"), result.outLines());
        assertEquals("", result.stderr());
    }

    @Test
    void theFileKeepsTheWindowAndItsSlices()
    {
        final Path file = dir.resolve("seen.ddf");
        final Cli.Result first = Cli.run("a\nb\n", "pipe", "--window", "90s", "--subfilters", "3", "--file",
            file.toString());
        assertEquals(0, first.status(), first::toString);
        try (DuplicateFilter filter = Filters.open(file))
        {
            final TimeWindow window = filter.timeWindow().orElseThrow();
            assertEquals(Duration.ofSeconds(90), window.window());
            assertEquals(3, window.slices());
        }
        final Cli.Result again = Cli.run("a\nc\n", "pipe", "--window", "90s", "--file", file.toString());
        assertEquals(List.of("D", "U"), again.outLines(), again::toString);
        final Cli.Result other = Cli.run("a\n", "pipe", "--window", "2m", "--file", file.toString());
        assertEquals(2, other.status(), other::toString);
        assertTrue(other.stderr().contains("window-ms=90000, not window-ms=120000"), other.stderr());
    }

    /** The aged cuckoo table (issue 29's memory target) keeps a window of time through pipe too. */
    @Test
    void theAgedCuckooTableTakesAWindowOfTime()
    {
        final Path file = dir.resolve("aged.ddf");
        final Cli.Result first = Cli.run("a\nb\na\nc\n", "pipe", "--filter", "aged-cuckoo", "--window", "24h",
            "--subfilters", "4", "--capacity", "1000", "--file", file.toString());
        assertEquals(0, first.status(), first::toString);
        assertEquals(List.of("U", "U", "D", "U"), first.outLines());
        try (DuplicateFilter filter = Filters.open(file))
        {
            assertEquals(FilterKind.AGED_CUCKOO, filter.parameters().kind());
            final TimeWindow window = filter.timeWindow().orElseThrow();
            assertEquals(Duration.ofHours(24), window.window());
            assertEquals(4, window.slices());
        }
        final Cli.Result again = Cli.run("c\nd\n", "pipe", "--filter", "aged-cuckoo", "--window", "24h", "--file",
            file.toString());
        assertEquals(List.of("D", "U"), again.outLines(), again::toString);
    }

    @Test
    void aNumberIsStillACountWindow()
    {
        final Cli.Result result = Cli.run("a\nb\na\n", "pipe", "--filter", "qht", "--window", "256", "--subfilters",
            "4");
        assertEquals(0, result.status(), result::toString);
        assertEquals(List.of("U", "U", "D"), result.outLines());
    }

    @Test
    void wrongUsesSayWhatToDo()
    {
        final Cli.Result qht = Cli.run("a\n", "pipe", "--filter", "qht", "--window", "24h");
        assertEquals(2, qht.status());
        assertTrue(qht.stderr().contains("--window with a time is fifo-bloom's and aged-cuckoo's"), qht.stderr());
        final Cli.Result bad = Cli.run("a\n", "pipe", "--window", "24x");
        assertEquals(2, bad.status());
        assertTrue(bad.stderr().contains("Invalid value for option '--window'") &&
            bad.stderr().contains("unknown unit 'x'"), bad.stderr());
        final Cli.Result none = Cli.run("a\n", "pipe");
        assertEquals(2, none.status());
        assertTrue(none.stderr().contains("'--filter=KIND' (or --window"), none.stderr());
        final Cli.Result event = Cli.run("a\n", "pipe", "--window", "1h", "--time-source", "1");
        assertEquals(2, event.status());
        assertTrue(event.stderr().contains("pipe reads no times"), event.stderr());
    }

    /** A file last used two days ago with a window of an hour: the run says what expired, and forgot it. */
    @Test
    void aWindowThatPassedWhileClosedIsSaidBeforeTheVerdicts()
    {
        final Path file = dir.resolve("old.ddf");
        final Instant twoDaysAgo = Instant.now().minus(Duration.ofDays(2));
        try (DuplicateFilter filter = Filters.builder(FilterKind.FIFO_BLOOM).window(Duration.ofHours(1))
            .clock(InstantSource.fixed(twoDaysAgo)).file(file).create())
        {
            filter.stream("old");
        }
        final Cli.Result result = Cli.run("old\nold\n", "pipe", "--window", "1h", "--file", file.toString());
        assertEquals(0, result.status(), result::toString);
        assertEquals(List.of("U", "D"), result.outLines());
        assertTrue(result.stderr().contains("1 generation expired while closed (the filter's time was " +
            Instant.ofEpochMilli(twoDaysAgo.toEpochMilli())), result.stderr());
    }
}
