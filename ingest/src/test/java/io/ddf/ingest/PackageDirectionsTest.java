package io.ddf.ingest;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon's packages point one way (the map is {@code io.ddf.ingest}'s package documentation): each package of
 * ingest's main sources may use only the ingest packages {@link #ALLOWED} lists for it, counting what the source
 * says (every import, used or not, and every name qualified by a package), not only what the bytecode keeps.
 * Comments and string literals do not count. The project's {@code SourcePackageCyclesTest} (persistence) forbids
 * cycles and packages over 30 files; this test says which way the edges go: the protocol knows nothing of the
 * application, storage never speaks the protocol, a command family never reaches the connection or another family,
 * and nothing but the command line reaches the start-up wiring.
 */
class PackageDirectionsTest
{
    private static final String ROOT = "io.ddf.ingest";
    private static final Set<String> FAMILY_NEEDS = Set.of("acl", "config", "dispatch", "glob", "log", "resp",
        "store");

    /** Package (relative to {@code io.ddf.ingest}; "" for the command line) → the ingest packages it may use. */
    static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
        Map.entry("log", Set.of()),
        Map.entry("glob", Set.of()),
        Map.entry("tls", Set.of()),
        Map.entry("migrate", Set.of()),
        Map.entry("acl", Set.of("glob")),
        Map.entry("resp", Set.of()),
        Map.entry("durability", Set.of("log", "resp")),
        Map.entry("store", Set.of("durability", "log")),
        Map.entry("redisbloom", Set.of("resp", "store")),
        Map.entry("config", Set.of("store", "tls")),
        Map.entry("dispatch", Set.of("acl", "log", "resp", "store")),
        Map.entry("session", Set.of("acl", "config", "dispatch", "log", "resp", "store")),
        Map.entry("security", Set.of("acl", "config", "dispatch", "log", "resp", "tls")),
        Map.entry("info", Set.of("config", "dispatch", "durability", "log", "session", "store")),
        Map.entry("feed", Set.of("config", "dispatch", "log", "resp", "session", "store")),
        Map.entry("commands.acl", FAMILY_NEEDS),
        Map.entry("commands.keyspace", FAMILY_NEEDS),
        Map.entry("commands.redisbloom", union(FAMILY_NEEDS, "redisbloom")),
        Map.entry("commands.server", union(FAMILY_NEEDS, "info", "security")),
        Map.entry("server", Set.of("acl", "commands.acl", "commands.keyspace", "commands.redisbloom",
            "commands.server", "config", "dispatch", "durability", "feed", "info", "log", "resp", "security",
            "session", "store", "tls")),
        Map.entry("", Set.of("config", "info", "migrate", "server")));

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern ON_DEMAND =
        Pattern.compile("^\\s*import\\s+(io\\.ddf\\.ingest(?:\\.[a-z_][a-z0-9_]*)*)\\.\\*\\s*;", Pattern.MULTILINE);
    private static final Pattern QUALIFIED =
        Pattern.compile("(?<![\\w.])(io\\.ddf\\.ingest(?:\\.[a-z_][a-z0-9_]*)*)\\.([A-Z]\\w*)");

    @Test
    void everyPackageUsesOnlyWhatItsLayerMay() throws IOException
    {
        final Map<String, String> sources = new TreeMap<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java")))
        {
            for (final Path file : files.filter(f -> f.toString().endsWith(".java")).toList())
            {
                sources.put(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
            }
        }
        final List<String> violations = violations(sources);
        assertTrue(violations.isEmpty(), () -> "package directions broken (ALLOWED; io.ddf.ingest's " +
            "package-info):\n  " + String.join("\n  ", violations));
    }

    /** The check on sources written for it: a violation planted in each rule is seen, comments and strings are not. */
    @Test
    void seesAPlantedViolationOfEachKindButNotCommentsOrStrings()
    {
        final Map<String, String> sources = Map.of(
            "store/S.java", "package io.ddf.ingest.store;\nimport io.ddf.ingest.resp.RespError;\nclass S {}\n",
            "resp/R.java", "package io.ddf.ingest.resp;\nclass R { Object o = new io.ddf.ingest.store.S(); }\n",
            "bloom/B.java", "package io.ddf.ingest.commands.keyspace;\nimport io.ddf.ingest.session.C;\n" +
                "import io.ddf.ingest.commands.server.*;\nclass B {}\n",
            "ok/O.java", "package io.ddf.ingest.store;\n/** {@link io.ddf.ingest.session.C} */\nclass O { " +
                "String s = \"io.ddf.ingest.server.DdfServer\"; }\n",
            "new/N.java", "package io.ddf.ingest.newpackage;\nclass N {}\n");
        assertEquals(List.of(
            "io.ddf.ingest.commands.keyspace -> io.ddf.ingest.commands.server (bloom/B.java: *)",
            "io.ddf.ingest.commands.keyspace -> io.ddf.ingest.session (bloom/B.java: C)",
            "io.ddf.ingest.newpackage has no entry in ALLOWED (new/N.java): say what it may use",
            "io.ddf.ingest.resp -> io.ddf.ingest.store (resp/R.java: S)",
            "io.ddf.ingest.store -> io.ddf.ingest.resp (store/S.java: RespError)"), violations(sources));
    }

    /** @return each edge that {@link #ALLOWED} does not allow, sorted, with the file and type that make it. */
    static List<String> violations(final Map<String, String> sources)
    {
        final Set<String> found = new TreeSet<>();
        for (final Map.Entry<String, String> source : sources.entrySet())
        {
            final String code = withoutCommentsAndLiterals(source.getValue());
            final Matcher pkg = PACKAGE.matcher(code);
            if (!pkg.find() || !pkg.group(1).startsWith(ROOT))
            {
                continue;
            }
            final String from = relative(pkg.group(1));
            final Set<String> allowed = ALLOWED.get(from);
            if (allowed == null)
            {
                found.add(pkg.group(1) + " has no entry in ALLOWED (" + source.getKey() + "): say what it may use");
                continue;
            }
            for (final Pattern pattern : List.of(QUALIFIED, ON_DEMAND))
            {
                final Matcher name = pattern.matcher(code);
                while (name.find())
                {
                    final String to = relative(name.group(1));
                    if (!to.equals(from) && !allowed.contains(to))
                    {
                        found.add(pkg.group(1) + " -> " + name.group(1) + " (" + source.getKey() + ": " +
                            (pattern == ON_DEMAND ? "*" : name.group(2)) + ")");
                    }
                }
            }
        }
        return List.copyOf(found);
    }

    private static String relative(final String pkg)
    {
        return pkg.equals(ROOT) ? "" : pkg.substring(ROOT.length() + 1);
    }

    private static Set<String> union(final Set<String> base, final String... more)
    {
        final Set<String> all = new TreeSet<>(base);
        all.addAll(List.of(more));
        return Set.copyOf(all);
    }

    /** The source with comments, string and character literals (text blocks too) blanked. */
    static String withoutCommentsAndLiterals(final String source)
    {
        return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ")
            .replaceAll("(?s)\"\"\".*?\"\"\"", "\"\"").replaceAll("\"(\\\\.|[^\"\\\\\\n])*\"", "\"\"")
            .replaceAll("'(\\\\.|[^'\\\\])'", "''");
    }
}
