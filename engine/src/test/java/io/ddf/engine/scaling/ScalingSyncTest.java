package io.ddf.engine.scaling;

import io.ddf.engine.Filters;
import io.ddf.engine.internal.BackgroundSync;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sync policy on the filters that grow (issue 24): {@link ScalingFilter#sync()} forces a file only when it changed
 * since the last sync (a write counted, a growth included), a closed filter has nothing to sync, and the engine's
 * once-a-second cycle forces the changed ones it was given ({@link Filters#syncEverySecond}). What a power cut takes is
 * the daemon's DaemonPowerCutIT's.
 */
final class ScalingSyncTest
{
    @TempDir
    Path dir;

    private static byte[] item(final int i)
    {
        return ("item-" + i).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void aChainIsForcedOnlyWhenItChanged()
    {
        final BloomChain chain = BloomChain.redisBloom(dir.resolve("c.ddfs"), 50, 0.01, false, 2);
        try
        {
            assertEquals(-1, chain.sync(), "nothing changed since its creation forced it");
            chain.add(item(0));
            assertEquals(1, chain.sync(), "an add: its one segment forced");
            assertEquals(-1, chain.sync(), "nothing since");
            chain.contains(item(0));
            assertEquals(-1, chain.sync(), "a read changes nothing");
            for (int i = 1; i < 200; i++)
            {
                chain.add(item(i));
            }
            assertTrue(chain.layerCount() > 1, "it grew");
            assertEquals(chain.layerCount(), chain.sync(), "every segment forced, the new ones too");
            chain.add(item(1000));
        }
        finally
        {
            chain.close();
        }
        assertEquals(-1, chain.sync(), "a closed chain has nothing to sync, changed or not");
    }

    @Test
    void aCuckooFilterIsForcedWhenAnInsertOrADeleteChangedIt()
    {
        try (RedisCuckoo cuckoo = RedisCuckoo.create(dir.resolve("f.ddfs"), 1000, 2, 20, 1))
        {
            assertEquals(-1, cuckoo.sync());
            cuckoo.insert(RedisCuckoo.hash(item(1)), false);
            assertTrue(cuckoo.sync() >= 1, "an insert");
            assertEquals(-1, cuckoo.sync());
            assertTrue(cuckoo.delete(RedisCuckoo.hash(item(1))));
            assertTrue(cuckoo.sync() >= 1, "a delete");
            assertEquals(-1, cuckoo.sync());
        }
    }

    @Test
    void theOnceASecondCycleForcesTheChainsItWasGiven()
    {
        try (BloomChain chain = BloomChain.redisBloom(dir.resolve("e.ddfs"), 50, 0.01, false, 2))
        {
            Filters.syncEverySecond(chain);
            try
            {
                chain.add(item(0));
                final int forced = BackgroundSync.runOnce().lastFilters();
                assertTrue(forced >= 1, "the cycle forced the changed chain: " + forced);
                assertEquals(-1, chain.sync(), "the cycle took the change");
            }
            finally
            {
                Filters.stopSyncing(chain);
            }
            chain.add(item(1));
            BackgroundSync.runOnce();
            assertEquals(1, chain.sync(), "a chain left out of the cycle keeps its change for its own sync");
        }
    }
}
