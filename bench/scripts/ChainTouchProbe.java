/*
 * The cost of a 10^9 chain's add one by one against adds touched 16 ahead (issue 31 item 10; commands.redisbloom.ChainAdds):
 * one thread, a default chain (BF.RESERVE's 1 % at 10^9, 1.46 GB) at PATH (/dev/shm: no writeback), random 8-byte items,
 * rounds of N adds alternated: one by one (hash, add) and in groups of 16 (hash and touch 16, then add 16), the
 * thread's CPU ns per add. Run with the daemon's jar (bin/ddf builds it):
 *   java $(bin/ddf jvm-flags) -Xmx512m -cp ingest/target/ddf.jar bench/scripts/ChainTouchProbe.java /dev/shm/probe.ddfs 4000000
 */

import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.ChainItems;
import org.agrona.concurrent.UnsafeBuffer;
import java.lang.management.ManagementFactory;
import java.nio.file.*;

public final class ChainTouchProbe {
  public static void main(String[] a) throws Exception {
    Path p = Paths.get(a[0]);
    Files.deleteIfExists(p);
    long n = Long.parseLong(a[1]);
    BloomChain c = BloomChain.create(p, 1_000_000_000L, 0.01, false, 2, 42);
    var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    java.util.SplittableRandom r = new java.util.SplittableRandom(7);
    UnsafeBuffer buf = new UnsafeBuffer(new byte[8]);
    long sink = 0;
    long[] fa = new long[16], fb = new long[16];
    for (int round = 0; round < 6; round++) {
      boolean grouped = round % 2 == 1;
      long t0 = bean.getCurrentThreadCpuTime();
      for (long i = 0; i < n; i += 16) {
        for (int j = 0; j < 16; j++) {
          buf.putLong(0, r.nextLong());
          long x = ChainItems.first(c, buf, 0, 8);
          fa[j] = x; fb[j] = ChainItems.second(c, buf, 0, 8, x);
          if (grouped) sink += ChainItems.touch(c, x);
        }
        for (int j = 0; j < 16; j++) {
          sink += ChainItems.add(c, fa[j], fb[j]).ordinal();
        }
      }
      long t1 = bean.getCurrentThreadCpuTime();
      System.out.printf("round %d %s: %.1f ns CPU/add%n", round, grouped ? "touched 16 ahead" : "one by one", (t1 - t0) / (double) n);
    }
    System.out.println(sink);
    c.close();
  }
}
