/*
 * Whether the raw feed's batches into a chain pay for taking the chain's monitor once a batch (issue 31 item 11,
 * feed.ChainFeed, ChainItems.addAll) rather than once per add (ChainItems.add, BloomChain.addHashed is synchronized):
 * one thread, a NONSCALING chain of 10^7 at 1 % (BF.RESERVE feed 0.01 10000000 NONSCALING, not logged), 1,000,000
 * random items per run hashed in batches of 4096 outside the timing, then added in groups of 16 touched first, either
 * with the monitor per add or once a batch; 6 rounds, the order of the two alternated; the thread's CPU ns per add.
 * Run with the daemon's jar (bin/ddf builds it):
 *   java $(bin/ddf jvm-flags) -cp ingest/target/ddf.jar bench/scripts/ChainMonitorProbe.java
 */

import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.ChainItems;
import org.agrona.concurrent.UnsafeBuffer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

public final class ChainMonitorProbe {
  static long sum;

  public static void main(String[] a) throws Exception {
    int n = 1_000_000, batch = 4096;
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long[] f = new long[batch], s = new long[batch];
    ChainItems.Results results = r -> { };
    for (int round = 0; round < 6; round++) {
      for (int m = 0; m < 2; m++) {
        boolean once = (m + round) % 2 == 1;
        Path p = Files.createTempFile("probe", ".ddfs");
        Files.delete(p);
        BloomChain chain = BloomChain.create(p, 10_000_000, 0.01, true, 2, 42);
        SplittableRandom rnd = new SplittableRandom(round);
        long t = 0;
        for (int done = 0; done < n; done += batch) {
          for (int i = 0; i < batch; i++) {
            byte[] item = Long.toString(rnd.nextLong()).getBytes(StandardCharsets.US_ASCII);
            UnsafeBuffer v = new UnsafeBuffer(item);
            f[i] = ChainItems.first(chain, v, 0, item.length);
            s[i] = ChainItems.second(chain, v, 0, item.length, f[i]);
          }
          long t0 = mx.getCurrentThreadCpuTime();
          if (once) {
            sum += ChainItems.addAll(chain, f, s, batch, 16, results);
          } else {
            for (int from = 0; from < batch; from += 16) {
              for (int i = from; i < from + 16; i++) sum += ChainItems.touch(chain, f[i]);
              for (int i = from; i < from + 16; i++) results.result(ChainItems.add(chain, f[i], s[i]));
            }
          }
          t += mx.getCurrentThreadCpuTime() - t0;
        }
        System.out.printf("round %d %s %.1f ns/add (sink %d)%n", round, once ? "monitor-once-a-batch" : "monitor-per-add",
            (double) t / n, sum & 1);
        chain.close();
        Files.deleteIfExists(p);
      }
    }
  }
}
