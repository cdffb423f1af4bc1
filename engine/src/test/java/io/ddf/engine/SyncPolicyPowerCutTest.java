package io.ddf.engine;

import io.ddf.persistence.testing.ChildJvm;
import io.ddf.persistence.testing.PowerCutFileSystem;
import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.Recovery;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Each sync policy across a power cut ({@link PowerCutFileSystem}): a second JVM streams into a filter and is killed
 * by the cut. {@code always} keeps every element it acknowledged; {@code everysec} every element acknowledged before
 * a background sync that completed; {@code no}, which syncs nothing while open, keeps none (that it loses them is
 * what shows the cut is real).
 */
final class SyncPolicyPowerCutTest extends EngineTestBase
{
    @TempDir
    Path work;

    @BeforeAll
    static void available()
    {
        PowerCutFileSystem.assumeAvailable();
    }

    @AfterEach
    void sameBootAgain()
    {
        System.clearProperty(BootId.PROPERTY);
    }

    @ParameterizedTest
    @EnumSource(SyncPolicy.class)
    void whatEachPolicyKeeps(final SyncPolicy policy) throws IOException
    {
        try (PowerCutFileSystem fs = PowerCutFileSystem.mount(work))
        {
            final Path path = fs.root().resolve(policy.cliName() + ".ddf");
            final Process probe = new ProcessBuilder(ChildJvm.command(SyncPolicyProbe.class, path.toString(),
                policy.cliName())).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try
            {
                final String line = new BufferedReader(new InputStreamReader(probe.getInputStream(),
                    StandardCharsets.UTF_8)).readLine();
                assertEquals("ACKED", line, "the probe failed");
                fs.cut(probe.toHandle());
            }
            finally
            {
                probe.destroyForcibly();
            }
            // a power cut is a reboot: another kernel boot id, so the open replays the log (issue 31)
            System.setProperty(BootId.PROPERTY, UUID.randomUUID().toString());
            try (DuplicateFilter filter = Filters.open(path))
            {
                assertEquals(LastClose.Kind.CRASH, filter.lastClose().kind(), "a cut is not a clean close");
                final int kept = present(filter, SyncPolicyProbe.FIRST);
                switch (policy)
                {
                    case ALWAYS, EVERYSEC -> assertEquals(SyncPolicyProbe.FIRST.length, kept,
                        policy.cliName() + " lost acknowledged elements");
                    case NO -> assertEquals(0, kept, "nothing was synced, yet elements survived the cut: " +
                        "the cut dropped nothing");
                }
                if (policy != SyncPolicy.NO)
                {
                    assertEquals(Recovery.Outcome.REPLAYED, filter.recovery().outcome(), filter.recovery().describe());
                }
            }
        }
    }

    private static int present(final DuplicateFilter filter, final long[] elements)
    {
        int found = 0;
        for (final long element : elements)
        {
            found += filter.contains(element) ? 1 : 0;
        }
        return found;
    }
}
