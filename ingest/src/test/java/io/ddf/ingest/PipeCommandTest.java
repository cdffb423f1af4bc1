package io.ddf.ingest;

import io.ddf.engine.FilterKind;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ddf pipe} end to end, in process, against the real engine. */
class PipeCommandTest
{
    /** A table big enough that a few thousand distinct lines see no filter errors. */
    private static final String[] BIG = {"--memory-bits", "16777216", "--fingerprint-bits", "32"};

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.ddf.ingest.TestKinds#streamable")
    void repeatedLineIsUnseenThenDuplicate(final FilterKind kind)
    {
        final Cli.Result result = Cli.run("hello\nhello\n", "pipe", "--filter", kind.cliName(), "--seed", "7");
        assertEquals(0, result.status(), result::toString);
        assertEquals("U\nD\n", result.out());
        assertEquals("", result.stderr());
    }

    @Test
    void oneVerdictPerLineIncludingAnUnterminatedLast()
    {
        final Cli.Result result = Cli.run("a\nb\n\nc\n\na", "pipe", "--filter", "qht");
        assertEquals(0, result.status(), result::toString);
        assertEquals(List.of("U", "U", "U", "U", "D", "D"), result.outLines());
    }

    @Test
    void crlfLineIsDistinctFromLfLine()
    {
        final Cli.Result result = Cli.run("x\r\nx\nx\r\nx\n", "pipe", "--filter", "qhtd");
        assertEquals(0, result.status(), result::toString);
        assertEquals(List.of("U", "U", "D", "D"), result.outLines());
    }

    @Test
    void emptyInputWritesNothing()
    {
        final Cli.Result result = Cli.run("", "pipe", "--filter", "sqf");
        assertEquals(0, result.status(), result::toString);
        assertEquals("", result.out());
    }

    @Test
    void verdictCountEqualsLineCount()
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        final StringBuilder in = new StringBuilder();
        final int lines = 20_000 + random.nextInt(1000);
        for (int i = 0; i < lines; i++)
        {
            in.append(random.nextInt(5000)).append(random.nextBoolean() ? "\r\n" : "\n");
        }
        final Cli.Result result = Cli.run(in.toString(), "pipe", "--filter", "qqhtd", "--memory-bits", "8192");
        assertEquals(0, result.status(), result::toString);
        final List<String> verdicts = result.outLines();
        assertEquals(lines, verdicts.size());
        assertTrue(verdicts.stream().allMatch(v -> v.equals("U") || v.equals("D")));
    }

    @Test
    void uniqueMatchesAwkSeen()
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        final ByteArrayOutputStream in = new ByteArrayOutputStream();
        final List<byte[]> lines = new ArrayList<>();
        for (int i = 0; i < 10_000; i++)
        {
            final byte[] line = randomLine(random);
            lines.add(line);
            in.writeBytes(line);
            if (i < 9_999 || random.nextBoolean())
            {
                in.write('\n');
            }
        }
        // awk '!seen[$0]++'
        final ByteArrayOutputStream expected = new ByteArrayOutputStream();
        final Set<ByteBuffer> seen = new HashSet<>();
        for (final byte[] line : lines)
        {
            if (seen.add(ByteBuffer.wrap(line)))
            {
                expected.writeBytes(line);
                expected.write('\n');
            }
        }
        final List<String> args = new ArrayList<>(List.of("pipe", "--filter", "qht", "--unique"));
        args.addAll(Arrays.asList(BIG));
        final Cli.Result result = Cli.run(in.toByteArray(), args.toArray(new String[0]));
        assertEquals(0, result.status(), result::toString);
        assertArrayEquals(expected.toByteArray(), result.stdout());
    }

    private static boolean takes(final FilterKind kind, final String parameter)
    {
        return kind.takes(parameter);
    }

    @ParameterizedTest
    @MethodSource("io.ddf.ingest.TestKinds#streamable")
    void fileContinuesWhereTheLastRunStopped(final FilterKind kind) throws IOException
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        final List<String> lines = new ArrayList<>();
        for (int i = 0; i < 4000; i++)
        {
            lines.add("element-" + random.nextInt(1500));
        }
        final String hashSeed = Long.toString(random.nextLong());
        // a small table (and window), so that evictions and false positives happen and must replay exactly
        final List<String> options = new ArrayList<>(List.of("--filter", kind.cliName(), "--seed", hashSeed));
        if (takes(kind, "window"))
        {
            options.addAll(List.of("--window", "256"));
        }
        if (takes(kind, "memory-bits"))
        {
            options.addAll(List.of("--memory-bits", "4096"));
        }
        final String[] filter = options.toArray(new String[0]);

        final Cli.Result whole = Cli.run(join(lines), concat(new String[] {"pipe"}, filter));
        assertEquals(0, whole.status(), whole::toString);

        final Path file = dir.resolve("state.ddf");
        final int half = lines.size() / 2;
        final Cli.Result first = Cli.run(join(lines.subList(0, half)),
            concat(new String[] {"pipe", "--file", file.toString()}, filter));
        assertEquals(0, first.status(), first::toString);
        assertTrue(Files.exists(file));
        // the second run gives only the kind: the rest comes from the file's header
        final Cli.Result second = Cli.run(join(lines.subList(half, lines.size())),
            "pipe", "--filter", kind.cliName(), "--file", file.toString());
        assertEquals(0, second.status(), second::toString);

        final List<String> resumed = new ArrayList<>(first.outLines());
        resumed.addAll(second.outLines());
        assertEquals(whole.outLines(), resumed);
        assertTrue(whole.outLines().contains("D"));

        final Cli.Result info = Cli.run("", "info", file.toString());
        assertEquals(0, info.status(), info::toString);
        assertTrue(info.outLines().contains("elements: " + lines.size()), info.out());
        final long duplicates = whole.outLines().stream().filter("D"::equals).count();
        assertTrue(info.outLines().contains("duplicates: " + duplicates), info.out());
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"always", "everysec", "no"})
    void everySyncPolicyGivesTheSameVerdictsAndKeepsTheState(final String policy)
    {
        final Path file = dir.resolve(policy + ".ddf");
        final Cli.Result first = Cli.run("a\nb\na\n", "pipe", "--filter", "qht", "--file", file.toString(),
            "--fsync", policy);
        assertEquals(0, first.status(), first::toString);
        assertEquals(List.of("U", "U", "D"), first.outLines());
        final Cli.Result second = Cli.run("b\nc\n", "pipe", "--filter", "qht", "--file", file.toString(),
            "--fsync", policy);
        assertEquals(0, second.status(), second::toString);
        assertEquals(List.of("D", "U"), second.outLines());
    }

    @Test
    void aFileLeftByACrashIsSaidSoBeforeTheVerdicts() throws IOException
    {
        final Path file = dir.resolve("clean.ddf");
        final Path crashed = dir.resolve("crashed.ddf");
        try (io.ddf.engine.DuplicateFilter filter = io.ddf.engine.Filters.builder(FilterKind.QHT).seed(3)
            .file(file).create())
        {
            filter.stream(1L);
            Files.copy(file, crashed); // taken while open: unsealed, as a crash leaves it
        }
        final Cli.Result clean = Cli.run("a\n", "pipe", "--filter", "qht", "--file", file.toString());
        assertEquals(0, clean.status(), clean::toString);
        assertEquals("", clean.stderr(), "a clean file is opened silently");
        final Cli.Result result = Cli.run("a\n", "pipe", "--filter", "qht", "--file", crashed.toString());
        assertEquals(0, result.status(), result::toString);
        assertEquals(List.of("U"), result.outLines());
        assertTrue(result.stderr().startsWith("ddf: " + crashed + ": not closed cleanly"), result.stderr());
        assertTrue(result.stderr().contains("may be missing"), result.stderr());
    }

    @Test
    void fsyncWithoutAFileIsRefused()
    {
        final Cli.Result result = Cli.run("a\n", "pipe", "--filter", "qht", "--fsync", "always");
        assertEquals(2, result.status(), result::toString);
        assertTrue(result.stderr().contains("--fsync needs --file"), result.stderr());
        assertEquals(0, result.stdout().length, result.out());
    }

    @Test
    void anUnknownSyncPolicyIsRefusedNamingTheChoices()
    {
        final Cli.Result result = Cli.run("a\n", "pipe", "--filter", "qht", "--file",
            dir.resolve("x.ddf").toString(), "--fsync", "sometimes");
        assertEquals(2, result.status(), result::toString);
        assertTrue(result.stderr().contains("always, everysec or no"), result.stderr());
        assertFalse(Files.exists(dir.resolve("x.ddf")), "nothing is created for a refused command");
    }

    @Test
    void fileMadeWithOtherBucketsIsRefusedAndLeftUnchanged() throws IOException
    {
        final Path file = dir.resolve("buckets.ddf");
        final Cli.Result made = Cli.run("a\nb\n", "pipe", "--filter", "qht", "--buckets", "4",
            "--memory-bits", "65536", "--file", file.toString());
        assertEquals(0, made.status(), made::toString);
        final byte[] before = Files.readAllBytes(file);

        final Cli.Result refused = Cli.run("a\nc\n", "pipe", "--filter", "qht", "--buckets", "8",
            "--file", file.toString());
        assertEquals(2, refused.status(), refused::toString);
        assertEquals(0, refused.stdout().length, refused.out());
        assertEquals(1, refused.errLines().size(), refused.stderr());
        assertTrue(refused.stderr().startsWith("ddf: "), refused.stderr());
        assertTrue(refused.stderr().contains("buckets"), refused.stderr());
        assertArrayEquals(before, Files.readAllBytes(file));

        final Cli.Result otherKind = Cli.run("a\n", "pipe", "--filter", "sqf", "--file", file.toString());
        assertEquals(2, otherKind.status(), otherKind::toString);
        assertEquals(1, otherKind.errLines().size(), otherKind.stderr());
        assertTrue(otherKind.stderr().contains("filter"), otherKind.stderr());
        assertArrayEquals(before, Files.readAllBytes(file));
    }

    @Test
    void foreignFileIsRefusedAndLeftUnchanged() throws IOException
    {
        final Path file = dir.resolve("notes.txt");
        final byte[] text = "these are not the bytes you are looking for\n".repeat(100)
            .getBytes(StandardCharsets.US_ASCII);
        Files.write(file, text);
        final Cli.Result result = Cli.run("a\n", "pipe", "--filter", "qht", "--file", file.toString());
        assertEquals(2, result.status(), result::toString);
        assertEquals(0, result.stdout().length, result.out());
        assertEquals(1, result.errLines().size(), result.stderr());
        assertArrayEquals(text, Files.readAllBytes(file));
    }

    @Test
    void anonymousRunLeavesNoFileBehind() throws IOException
    {
        final Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        final Path cwd = Path.of("").toAbsolutePath();
        final Set<Path> before = list(tmp);
        before.addAll(list(cwd));
        final Cli.Result result = Cli.run("a\nb\na\n", "pipe", "--filter", "qht");
        assertEquals(0, result.status(), result::toString);
        final Set<Path> after = list(tmp);
        after.addAll(list(cwd));
        after.removeAll(before);
        assertFalse(after.stream().anyMatch(p -> p.getParent().equals(cwd)
            || p.getFileName().toString().toLowerCase(java.util.Locale.ROOT).contains("ddf")), after::toString);
    }

    private static Set<Path> list(final Path dir) throws IOException
    {
        try (var paths = Files.list(dir))
        {
            return new HashSet<>(paths.toList());
        }
    }

    private static byte[] randomLine(final Random random)
    {
        if (random.nextInt(3) == 0)
        {
            return ("common-" + random.nextInt(300)).getBytes(StandardCharsets.UTF_8);
        }
        final byte[] line = new byte[random.nextInt(40)];
        for (int i = 0; i < line.length; i++)
        {
            byte b;
            do
            {
                b = (byte)random.nextInt(256);
            }
            while (b == '\n');
            line[i] = b;
        }
        return line;
    }

    private static String join(final List<String> lines)
    {
        return String.join("\n", lines) + "\n";
    }

    private static String[] concat(final String[] a, final String[] b)
    {
        final String[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
