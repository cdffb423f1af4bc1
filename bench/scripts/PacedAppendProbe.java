/*
 * The change log's append as an event loop pays it (issue 31): one thread appends one-unit frames to a ChangeLog in
 * DIR (LogOptions.DEFAULT) among ~206 ns of other work each (120 rounds of xorshift), N a round, 8 rounds; per round
 * the thread's CPU ns per iteration, the process's (the ddf-log-ahead thread included; 10 ms granularity) and the
 * thread's page faults. The work alone costs ~206 ns (java Paced0-style loop without the append).
 *   java $(bin/ddf jvm-flags) -Xmx512m -cp ingest/target/ddf.jar bench/scripts/PacedAppendProbe.java DIR N
 * 2026-11-29, N = 2*10^6, main's jar at c066057 vs the chunked readying: thread 295-354 -> 219-245 ns, process
 * 315-375 -> 320-355 ns.
 */

import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogOptions;
import java.lang.management.ManagementFactory;
import java.nio.file.*;

public final class PacedAppendProbe {
  static long faults() throws Exception {
    String st = Files.readString(Paths.get("/proc/thread-self/stat"));
    String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[7]);
  }
  public static void main(String[] a) throws Exception {
    Path dir = Paths.get(a[0]);
    long n = Long.parseLong(a[1]);
    boolean owned = a.length > 2 && a[2].equals("owned");
    Files.createDirectories(dir);
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).filter(p -> !p.equals(dir)).forEach(p -> p.toFile().delete());
    }
    ChangeLog log = ChangeLog.open(dir.resolve("log"), owned ? LogOptions.DEFAULT.asOwned() : LogOptions.DEFAULT);
    var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sink = 0;
    for (int round = 0; round < 8; round++) {
      long f0 = faults();
      long t0 = bean.getCurrentThreadCpuTime();
      long q0 = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
      for (long i = 0; i < n; i++) {
        long x = i; for (int w = 0; w < 120; w++) { x ^= x << 13; x ^= x >>> 7; x ^= x << 17; } sink += x + log.append(1, 3, 0, i * 0x9E3779B97F4A7C15L, i);
      }
      long t1 = bean.getCurrentThreadCpuTime();
      long q1 = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
      System.out.printf("round %d %.1f ns CPU per paced append, process %.1f, %d faults%n", round, (t1 - t0) / (double) n, (q1 - q0) / (double) n, faults() - f0);
    }
    System.out.println("sink " + (sink & 1));
    log.close();
  }
}
