package io.ddf.ingest;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Help, version and every kind of bad command line: exit 2, one line on stderr, nothing on stdout. */
class CliUsageTest
{
    private static final List<String> PIPE_OPTIONS = List.of("--filter", "--memory-bits", "--rows", "--buckets",
        "--fingerprint-bits", "--remainder-bits", "--reduced-bits", "--seed", "--keyed", "--file", "--unique",
        "--fsync", "--help", "--version");

    @Test
    void topHelpListsSubcommands()
    {
        final Cli.Result result = Cli.run("", "--help");
        assertEquals(0, result.status(), result::toString);
        assertTrue(result.out().contains("pipe "), result.out());
        assertTrue(result.out().contains("info "), result.out());
        assertEquals("", result.stderr());
    }

    @Test
    void pipeHelpListsEachOptionOnOneLine()
    {
        final Cli.Result result = Cli.run("", "pipe", "--help");
        assertEquals(0, result.status(), result::toString);
        final List<String> lines = result.outLines();
        for (final String option : PIPE_OPTIONS)
        {
            final boolean described = lines.stream().anyMatch(
                line -> line.matches("^\\s+(-\\w, )?" + option + "(=\\S+)?\\s{2,}\\S.*$"));
            assertTrue(described, option + " is not on one line with its description:\n" + result.out());
        }
        final int first = lines.indexOf(lines.stream().filter(l -> l.contains("--filter=KIND  ")).findFirst()
            .orElseThrow());
        final int footer = lines.indexOf("Filter kinds and their options:");
        assertTrue(footer > first, "no list of kinds after the options:\n" + result.out());
        for (final String line : lines.subList(first, footer))
        {
            assertTrue(line.trim().startsWith("-"), "continuation line in the option list: '" + line + "'");
        }
        assertTrue(lines.contains("  qht: --rows --buckets --fingerprint-bits --memory-bits"), result.out());
    }

    @Test
    void version()
    {
        final Cli.Result result = Cli.run("", "--version");
        assertEquals(0, result.status(), result::toString);
        assertTrue(result.out().startsWith("ddf "), result.out());
        assertTrue(!result.out().contains("${"), result.out());
    }

    static Stream<List<String>> badCommandLines()
    {
        return Stream.of(
            List.of(),
            List.of("frobnicate"),
            List.of("pipe"),
            List.of("pipe", "--filter", "qht", "--bogus"),
            List.of("pipe", "--filter"),
            List.of("pipe", "--filter", "qht", "--rows"),
            List.of("pipe", "--filter", "nosuch"),
            List.of("pipe", "--filter", "qht", "--rows", "many"),
            List.of("pipe", "--filter", "qht", "--buckets", "4.5"),
            List.of("pipe", "--filter", "qht", "--remainder-bits", "8"),
            List.of("pipe", "--filter", "qht", "--remainder-bits", "8", "--reduced-bits", "4"),
            List.of("pipe", "--filter", "sqf", "--fingerprint-bits", "8"),
            List.of("pipe", "--filter", "qht", "--buckets", "4", "--fingerprint-bits", "2"),
            List.of("pipe", "--filter", "qht", "--fingerprint-bits", "40"),
            List.of("pipe", "--filter", "qht", "--memory-bits", "1024", "--rows", "8"),
            List.of("pipe", "--filter", "sqf", "--remainder-bits", "8", "--reduced-bits", "8"),
            List.of("info"),
            List.of("info", "a", "b"));
    }

    @ParameterizedTest
    @MethodSource("badCommandLines")
    void badCommandLineExits2WithOneLine(final List<String> args)
    {
        final Cli.Result result = Cli.run("a\nb\n", args.toArray(new String[0]));
        assertEquals(2, result.status(), result::toString);
        assertEquals(0, result.stdout().length, "stdout: " + result.out());
        final List<String> err = result.errLines();
        assertEquals(1, err.size(), result.stderr());
        assertTrue(err.get(0).startsWith("ddf: "), result.stderr());
        assertTrue(result.stderr().endsWith("\n"), result.stderr());
    }

    @Test
    void messagesSayWhatIsWrong()
    {
        assertTrue(Cli.run("", "pipe", "--filter", "qht", "--bogus").stderr().contains("--bogus"));
        assertTrue(Cli.run("", "pipe", "--filter", "qht", "--rows").stderr().contains("--rows"));
        assertTrue(Cli.run("", "pipe", "--filter", "qht", "--remainder-bits", "8").stderr()
            .contains("remainder-bits"));
        assertTrue(Cli.run("", "pipe", "--filter", "qht", "--buckets", "4", "--fingerprint-bits", "2").stderr()
            .contains("buckets"));
        assertTrue(Cli.run("", "pipe", "--filter", "nosuch").stderr().contains("qqhtd"));
    }
}
