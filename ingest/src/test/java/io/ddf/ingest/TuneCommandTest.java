package io.ddf.ingest;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.tune.CapacitySizing;
import io.ddf.engine.Filters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ddf tune}: the pick meets the caps, the printed command line, builder call and BF.RESERVE line build the
 * same filter, the weights move the pick along the trade-off, --json and --plot write what they say, bad input
 * exits 2 and unreachable caps exit 3.
 */
class TuneCommandTest
{
    private static final String[] TABLE2_CELL = {"tune", "--memory-bits", "80000", "--alphabet", "167772",
        "--stream-length", "1500000"};

    @Test
    void pickMeetsTheCapAndItsCommandBuildsAndRuns()
    {
        final Cli.Result r = Cli.run("", "tune", "--memory-bits", "65536", "--target-fpr", "0.3",
            "--stream-length", "100000", "--alphabet", "1048576");
        assertEquals(0, r.status(), r::toString);
        final Map<String, String> lines = fields(r);
        assertTrue(rate(lines, "predicted-fpr") <= 0.3, r.out());
        assertTrue(rate(lines, "predicted-fpr") + rate(lines, "predicted-fnr") < 1, r.out());
        final FilterParameters built = build(lines.get("command"));
        runs(lines.get("command"));
        assertTrue(lines.get("builder").startsWith("Filters.builder(FilterKind." + built.kind().name() + ")"),
            r.out());
        // a BF.RESERVE line (checked against the daemon's parser in ReserveSizingTest) for the kinds capacity and
        // error rate size, else the reason there is none
        assertTrue(CapacitySizing.SIZED.contains(built.kind()) ? lines.get("reserve").startsWith("BF.RESERVE KEY ") &&
            lines.get("reserve").contains(" KIND " + built.kind().cliName() + " ") :
            lines.get("reserve").startsWith("none: BF.RESERVE sizes fifo-bloom, bloom and qht"), r.out());
        assertTrue(r.out().contains("| kind | shape |") && r.out().contains("Not modelled"), r.out());
    }

    @Test
    void weightsMoveThePickAlongTheTradeOff()
    {
        final Map<String, String> fpCostly = fields(Cli.run("", with(TABLE2_CELL, "--fpr-weight", "20")));
        final Map<String, String> fnCostly = fields(Cli.run("", with(TABLE2_CELL, "--fnr-weight", "20")));
        assertTrue(rate(fpCostly, "predicted-fpr") < rate(fnCostly, "predicted-fpr"), fpCostly + " / " + fnCostly);
        assertTrue(rate(fpCostly, "predicted-fnr") > rate(fnCostly, "predicted-fnr"), fpCostly + " / " + fnCostly);
        final Map<String, String> capped = fields(Cli.run("", with(TABLE2_CELL, "--target-fnr", "0.7",
            "--target-fpr", "0.2")));
        assertTrue(rate(capped, "predicted-fpr") <= 0.2 && rate(capped, "predicted-fnr") <= 0.7, capped.toString());
    }

    @Test
    void windowedPickBuildsAndMeetsTheTarget()
    {
        final Cli.Result r = Cli.run("", "tune", "--memory-bits", "100000", "--window", "10000", "--target-fpr",
            "0.05");
        assertEquals(0, r.status(), r::toString);
        final Map<String, String> lines = fields(r);
        assertTrue(rate(lines, "predicted-fpr") <= 0.05, r.out());
        build(lines.get("command"));
        runs(lines.get("command"));
        assertTrue(lines.get("reserve").startsWith("none: BF.RESERVE sizes fifo-bloom, bloom and qht by capacity " +
            "and error rate, not queued qht"), r.out());
    }

    @Test
    void largeMemoryForTheWindowPicksAnErrorFreeWindowedFilter()
    {
        final Cli.Result r = Cli.run("", "tune", "--memory-bits", "4000000", "--window", "10000");
        assertEquals(0, r.status(), r::toString);
        final Map<String, String> lines = fields(r);
        // 400 bits per element: SHF/CSHF with 64-bit fingerprints or the exact window, error ~ 1e-15
        assertTrue(List.of("shf", "cshf", "exact-window").contains(lines.get("filter")), r.out());
        assertEquals(0, rate(lines, "predicted-fnr"));
        assertTrue(rate(lines, "predicted-fpr") < 1e-9, r.out());
        build(lines.get("command"));
    }

    @Test
    void jsonAndPlot(@TempDir final Path dir) throws IOException
    {
        final Path svg = dir.resolve("trade-off.svg");
        final Cli.Result r = Cli.run("", with(TABLE2_CELL, "--json", "--plot", svg.toString()));
        assertEquals(0, r.status(), r::toString);
        assertEquals(1, r.outLines().size(), r.out());
        final String json = r.out();
        for (final String key : List.of("\"pick\":{\"kind\":", "\"best_per_kind\":[", "\"frontier\":[",
            "\"not_modelled\":{", "\"reserve\":\"BF.RESERVE KEY ", "\"command\":\"bin/ddf pipe --filter "))
        {
            assertTrue(json.contains(key), key + " in " + json);
        }
        final String plot = Files.readString(svg);
        assertTrue(plot.startsWith("<svg") && plot.trim().endsWith("</svg>") && plot.contains("<path d=\"M"), plot);
    }

    /**
     * --changelog (issue 25): the pick for a Kafka Streams store is one whose changelog costs at most an exact
     * store's; on this stream with costly false positives that moves it from QQHTD (a word changed on every element)
     * to QHT (the new elements' hashes), whose command builds and runs; the JSON carries the same.
     */
    @Test
    void changelogObjectivePicksAKindLoggedByItsNewElementsHashes()
    {
        final Map<String, String> plain = fields(Cli.run("", with(TABLE2_CELL, "--fpr-weight", "20")));
        assertEquals("qqhtd", plain.get("filter"));
        final Cli.Result r = Cli.run("", with(TABLE2_CELL, "--fpr-weight", "20", "--changelog"));
        assertEquals(0, r.status(), r::toString);
        final Map<String, String> lines = fields(r);
        assertEquals("qht", lines.get("filter"), r.out());
        assertTrue(lines.get("changelog").startsWith("hashes of the new elements"), r.out());
        assertTrue(lines.get("objective").endsWith("changelog <= 16 bytes and one record per new element"), r.out());
        assertTrue(r.out().contains("| changelog bytes per new element | restore reads |"), r.out());
        assertTrue(r.out().contains("(words)") && r.out().contains("(hashes)"), r.out());
        build(lines.get("command"));
        runs(lines.get("command"));
        final String json = Cli.run("", with(TABLE2_CELL, "--fpr-weight", "20", "--changelog", "--json")).out();
        assertTrue(json.contains("\"changelog_bytes\":16.0000000") && json.contains("\"changelog\":{\"format\":\"hashes\""),
            json);
        // a cap below what the hashes cost admits nothing: the best is shown, exit 3
        assertEquals(3, Cli.run("", with(TABLE2_CELL, "--changelog", "4")).status());
    }

    @Test
    void unreachableCapsExitThreeWithTheBestShown()
    {
        final Cli.Result r = Cli.run("", with(TABLE2_CELL, "--target-fpr", "0.01", "--target-fnr", "0.01"));
        assertEquals(3, r.status(), r::toString);
        assertTrue(fields(r).get("filter").contains("no filter meets the caps"), r.out());
    }

    @Test
    void badInputExitsTwoWithOneLine()
    {
        for (final String[] args : List.of(
            new String[] {"tune", "--memory-bits", "0", "--target-fpr", "0.1"},
            new String[] {"tune", "--memory-bits", "1000", "--target-fpr", "1.5"},
            new String[] {"tune", "--memory-bits", "1000", "--window", "-1"},
            new String[] {"tune", "--memory-bits", "1000"},
            new String[] {"tune", "--memory-bits", "1000", "--alphabet", "1000", "--fpr-weight", "-1"},
            new String[] {"tune", "--memory-bits", "1000", "--zipf", "0.8", "--stream-length", "100"},
            new String[] {"tune", "--memory-bits", "1000", "--zipf", "1.2", "--window", "100"},
            new String[] {"tune", "--memory-bits", "many"},
            new String[] {"tune", "--target-fpr", "0.1"},
            new String[] {"tune", "--memory-bits", "1000", "--alphabet", "1000", "--changelog", "-2"}))
        {
            final Cli.Result r = Cli.run("", args);
            assertEquals(2, r.status(), () -> Arrays.toString(args) + ": " + r);
            assertEquals(1, r.errLines().size(), () -> Arrays.toString(args) + ": " + r);
            assertTrue(r.stderr().startsWith("ddf: "), r::toString);
            assertEquals("", r.out());
        }
    }

    private static String[] with(final String[] base, final String... more)
    {
        final String[] all = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    /** The "key: value" lines before the first blank line. */
    private static Map<String, String> fields(final Cli.Result r)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        for (final String line : r.outLines())
        {
            if (line.isEmpty())
            {
                break;
            }
            final int colon = line.indexOf(": ");
            map.put(line.substring(0, colon), line.substring(colon + 2));
        }
        return map;
    }

    private static double rate(final Map<String, String> lines, final String key)
    {
        return Double.parseDouble(lines.get(key));
    }

    /** Parses "bin/ddf pipe --filter K --name value ..." back through the engine builder. */
    private static FilterParameters build(final String command)
    {
        final String[] words = command.split(" ");
        assertEquals("bin/ddf", words[0]);
        assertEquals("pipe", words[1]);
        assertEquals("--filter", words[2]);
        final FilterBuilder builder = Filters.builder(FilterKind.fromName(words[3]));
        for (int i = 4; i < words.length; i += 2)
        {
            assertTrue(words[i].startsWith("--"), command);
            final String value = words[i + 1];
            if (value.contains("."))
            {
                builder.param(words[i].substring(2), Double.parseDouble(value));
            }
            else
            {
                builder.param(words[i].substring(2), Long.parseLong(value));
            }
        }
        return builder.parameters();
    }

    /** Runs the printed command in process on three lines. */
    private static void runs(final String command)
    {
        final String[] words = command.split(" ");
        final Cli.Result r = Cli.run("a\nb\na\n", Arrays.copyOfRange(words, 1, words.length));
        assertEquals(0, r.status(), r::toString);
        assertEquals(List.of("U", "U", "D"), r.outLines());
    }
}
