package io.ddf.ingest;

import io.ddf.engine.FilterBuilder;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.Filters;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ddf tune}: sane recommendations, printed command lines that build, bad input exits 2. */
class TuneCommandTest
{
    @Test
    void unboundedQhtMeetsTheTargetWithTheSmallestFingerprint()
    {
        final Cli.Result r = Cli.run("", "tune", "--memory-bits", "1000000", "--target-fpr", "0.2");
        assertEquals(0, r.status(), r::toString);
        System.out.print(r.out());
        final Map<String, String> lines = fields(r);
        assertTrue(fpr(lines) <= 0.2, r.out());
        // S = 2^s − 1 with k = floor(0.2 S) >= 1: s = 3 (S = 7, k = 1) is the smallest
        final FilterParameters params = build(lines.get("command"));
        assertEquals(FilterKind.QHT, params.kind());
        assertEquals(3L, params.get("fingerprint-bits"));
        assertEquals(1L, params.get("buckets"));
        assertEquals(1_000_000L / 3, params.get("rows"));
        runs(lines.get("command"));
    }

    @Test
    void unboundedWithAStreamLengthComparesFiniteStreamRates()
    {
        final Cli.Result r = Cli.run("", "tune", "--memory-bits", "65536", "--target-fpr", "0.3",
            "--stream-length", "100000", "--alphabet", "1048576");
        assertEquals(0, r.status(), r::toString);
        System.out.print(r.out());
        final Map<String, String> lines = fields(r);
        assertTrue(fpr(lines) <= 0.3, r.out());
        assertTrue(fpr(lines) + Double.parseDouble(lines.get("predicted-fnr")) < 1, r.out());
        build(lines.get("command"));
        runs(lines.get("command"));
    }

    @Test
    void windowedRecommendationBuildsAndMeetsTheTarget()
    {
        final Cli.Result r = Cli.run("", "tune", "--memory-bits", "100000", "--window", "10000", "--target-fpr",
            "0.05");
        assertEquals(0, r.status(), r::toString);
        System.out.print(r.out());
        final Map<String, String> lines = fields(r);
        assertTrue(fpr(lines) <= 0.05, r.out());
        build(lines.get("command"));
        runs(lines.get("command"));
        assertTrue(lines.get("reserve").startsWith("BF.RESERVE KEY 0.05 10000 KIND "), r.out());
    }

    @Test
    void largeMemoryForTheWindowPicksAShortHashFilter()
    {
        final Cli.Result r = Cli.run("", "tune", "--memory-bits", "4000000", "--window", "10000");
        assertEquals(0, r.status(), r::toString);
        System.out.print(r.out());
        final Map<String, String> lines = fields(r);
        // 400 bits per element: CSHF/SHF fingerprints of 64 bits, error ~ 1e-15, no false negative
        assertTrue(lines.get("filter").equals("shf") || lines.get("filter").equals("cshf"), r.out());
        assertEquals(0, Double.parseDouble(lines.get("predicted-fnr")));
        build(lines.get("command"));
    }

    @Test
    void badInputExitsTwoWithOneLine()
    {
        for (final String[] args : List.of(
            new String[] {"tune", "--memory-bits", "0", "--target-fpr", "0.1"},
            new String[] {"tune", "--memory-bits", "1000", "--target-fpr", "1.5"},
            new String[] {"tune", "--memory-bits", "1000", "--window", "0"},
            new String[] {"tune", "--memory-bits", "1000"},
            new String[] {"tune", "--memory-bits", "10", "--target-fpr", "0.001"},
            new String[] {"tune", "--memory-bits", "many"},
            new String[] {"tune", "--target-fpr", "0.1"}))
        {
            final Cli.Result r = Cli.run("", args);
            assertEquals(2, r.status(), () -> Arrays.toString(args) + ": " + r);
            assertEquals(1, r.errLines().size(), () -> Arrays.toString(args) + ": " + r);
            assertTrue(r.stderr().startsWith("ddf: "), r::toString);
            assertEquals("", r.out());
        }
    }

    private static Map<String, String> fields(final Cli.Result r)
    {
        final Map<String, String> map = new java.util.LinkedHashMap<>();
        for (final String line : r.outLines())
        {
            final int colon = line.indexOf(": ");
            map.put(line.substring(0, colon), line.substring(colon + 2));
        }
        return map;
    }

    private static double fpr(final Map<String, String> lines)
    {
        return Double.parseDouble(lines.get("predicted-fpr"));
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
            builder.param(words[i].substring(2), Long.parseLong(words[i + 1]));
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
