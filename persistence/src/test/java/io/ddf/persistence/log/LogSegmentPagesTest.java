package io.ddf.persistence.log;

import io.ddf.persistence.testing.Smaps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A change log's segments are mapped on small pages, made and reopened alike (MappingAdvice.smallPages): each force
 * writes the pages its records changed, not a 2 MiB folio around them. With the tables' huge-page advice on the log's
 * mappings too, `--fsync always` wrote 2.35 MB per group commit at 10^9 (697 MB/s; the mappings carried {@code hg}):
 * this test failed then.
 */
class LogSegmentPagesTest
{
    @TempDir
    Path dir;

    @Test
    void segmentsAreMappedWithoutHugePagesOrReadAhead() throws IOException
    {
        assumeTrue(Smaps.available(), "reads /proc/self/smaps");
        final Path logDir = dir.resolve("log");
        final LogOptions options = LogOptions.DEFAULT.withSegmentBytes(1 << 20);
        try (ChangeLog log = ChangeLog.open(logDir, options))
        {
            checkSegments(logDir, "a new log");
            log.force(log.appended());
        }
        try (ChangeLog log = ChangeLog.open(logDir, options))
        {
            assertFalse(log.openReport().created(), "the log was not reopened");
            checkSegments(logDir, "a reopened log");
        }
    }

    private static void checkSegments(final Path logDir, final String what) throws IOException
    {
        final List<Path> segments;
        try (Stream<Path> files = Files.list(logDir))
        {
            segments = files.map(Path::getFileName).map(Path::toString).filter(n -> n.endsWith(".ddflog") && !n.startsWith("."))
                .map(logDir::resolve).toList(); // not one the log is making ahead (".ddf-creating-...")
        }
        assertFalse(segments.isEmpty(), what + ": no segment in " + logDir);
        for (final Path segment : segments)
        {
            for (final Smaps.Mapping mapping : Smaps.of(segment))
            {
                assertFalse(mapping.vmFlags().contains("hg"), what + ": huge pages asked on " + segment + ": " + mapping);
                if (Smaps.transparentHugePages()) // MADV_NOHUGEPAGE is refused by a kernel without them
                {
                    assertTrue(mapping.vmFlags().contains("nh"), what + ": huge pages not refused on " + segment +
                        ": " + mapping);
                }
                assertTrue(mapping.vmFlags().contains("rr"), what + ": read-ahead on " + segment + ": " + mapping);
            }
        }
    }
}
