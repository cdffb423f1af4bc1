package io.ddf.ingest.server;

import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every reply reflects every earlier command of its connection: BF.CARD and BF.INFO ... ITEMS pipelined right
 * behind adds count those adds, although the adds are still in the pipeline when the read arrives.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ReadAfterWriteTest extends SharedServerTestBase
{
    @Test
    void cardAndInfoItemsPipelinedAfterAddsCountThem() throws IOException
    {
        final long seed = TestSeed.seed();
        final Random random = new Random(seed);
        try (RespClient c = server.client())
        {
            assertEquals("OK", c.call("BF.RESERVE", "raw", "0.000001", "1000000"));
            long added = 0;
            for (int trial = 0; trial < 100; trial++)
            {
                final ByteArrayOutputStream requests = new ByteArrayOutputStream();
                final int n = 1 + random.nextInt(200);
                final String[] madd = new String[n + 2];
                madd[0] = "BF.MADD";
                madd[1] = "raw";
                for (int i = 0; i < n; i++)
                {
                    madd[i + 2] = "t" + trial + "-" + i;
                }
                requests.writeBytes(RespClient.encode(madd));
                requests.writeBytes(RespClient.encode("BF.ADD", "raw", "single" + trial));
                requests.writeBytes(RespClient.encode("BF.CARD", "raw"));
                requests.writeBytes(RespClient.encode("BF.INFO", "raw", "ITEMS"));
                c.sendRaw(requests.toByteArray());
                added += n + 1;
                c.read();
                assertEquals(1L, c.read(), "BF.ADD, trial " + trial + " (seed " + seed + ")");
                assertEquals(added, c.read(), "BF.CARD, trial " + trial + " (seed " + seed + ")");
                assertEquals(List.of(added), c.read(), "BF.INFO ITEMS, trial " + trial + " (seed " + seed + ")");
            }
        }
    }
}
