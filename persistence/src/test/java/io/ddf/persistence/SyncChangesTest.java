package io.ddf.persistence;

import io.ddf.persistence.testing.ChildJvm;
import io.ddf.persistence.testing.PowerCutFileSystem;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link FilterFile#syncChanges} across a power cut: the change it forced survives, the change after it does not,
 * and the header tells when the last completed sync began. The writer is a second JVM, killed by the cut.
 */
final class SyncChangesTest extends MappedMemoryTestBase
{
    @TempDir
    Path work;

    @BeforeAll
    static void available()
    {
        PowerCutFileSystem.assumeAvailable();
    }

    @Test
    void whatASyncForcedSurvivesACutAndTheHeaderSaysWhen() throws Exception
    {
        try (PowerCutFileSystem fs = PowerCutFileSystem.mount(work))
        {
            final Path path = fs.root().resolve("synced.ddf");
            final Process probe = new ProcessBuilder(ChildJvm.command(SyncProbe.class, path.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            final String[] said;
            try
            {
                final String line = new BufferedReader(new InputStreamReader(probe.getInputStream(),
                    StandardCharsets.UTF_8)).readLine();
                assertNotNull(line, "the probe failed");
                said = line.split(" ");
                assertEquals("SYNCED", said[0], line);
                fs.cut(probe.toHandle());
            }
            finally
            {
                probe.destroyForcibly();
            }
            assertEquals("1", said[2], "the first sync forced the one marked page");
            assertEquals("0", said[3], "the second forced the header page only, to bring its time up to date");
            assertEquals("-1", said[4], "the third had nothing to do");
            try (FilterFile file = FilterFile.open(path))
            {
                final UnsafeBuffer table = new UnsafeBuffer(file.tableAddress(), (int)file.tableLength());
                assertEquals(4711, table.getLong(SyncProbe.SYNCED_OFFSET), "the synced change survives");
                assertEquals(0, table.getLong(SyncProbe.LOST_OFFSET), "the change after the last sync is lost");
                assertEquals(FilterFile.TableCheck.NOT_SEALED, file.tableCheck());
                assertEquals(Long.parseLong(said[1]), file.lastSyncAtOpen(),
                    "the header holds the start of the last completed sync");
                assertTrue(file.lastSyncAtOpen() >= file.createdMillis());
            }
        }
    }
}
