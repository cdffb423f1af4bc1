/*
 * What a page's first write through a shared file mapping costs on this machine, and what readies it (issue 31: the
 * change log's appends, LogSegment.readyForAppends): a fresh sparse file of MB MiB at PATH, mapped, readied HOW
 * (none; populate: madvise(MADV_POPULATE_WRITE) on this thread; populate-thread: the same on another thread;
 * touch-thread: another thread writes one byte a page through the mapping), then written twice in 32-byte records;
 * the writing thread's CPU ns per record and its page faults per pass.
 *   java --add-exports=java.base/sun.nio.ch=ALL-UNNAMED -cp ingest/target/ddf.jar bench/scripts/PagePopulateProbe.java PATH MB HOW
 * 2026-11-29, this machine (PVM guest, ext4): first pass 155 ns/record with 2,740 faults (none), 52-58 ns with 0-1
 * faults (populate, populate-thread), 11 ns with 0 faults (touch-thread); second pass 12-33 ns.
 */

import java.nio.*;
import java.nio.channels.*;
import java.nio.file.*;
import java.lang.management.ManagementFactory;
import net.openhft.posix.PosixAPI;

public final class PagePopulateProbe {
  static long faults() throws Exception {
    String st = Files.readString(Paths.get("/proc/thread-self/stat"));
    String[] f = st.substring(st.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[7]);
  }
  public static void main(String[] a) throws Exception {
    Path p = Paths.get(a[0]);
    int mb = Integer.parseInt(a[1]);
    String how = a[2];
    Files.deleteIfExists(p);
    var bean = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ch.truncate((long) mb << 20);
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, (long) mb << 20);
      m.order(ByteOrder.nativeOrder());
      long addr = ((sun.nio.ch.DirectBuffer) m).address();
      int n = mb << 20;
      long t0 = bean.getCurrentThreadCpuTime(); long f0 = faults();
      if (how.equals("populate")) {
        System.out.println("madvise " + PosixAPI.posix().madvise(addr, n, 23));
      } else if (how.equals("populate-thread")) {
        Thread t = new Thread(() -> PosixAPI.posix().madvise(addr, n, 23)); t.start(); t.join();
      } else if (how.equals("touch-thread")) {
        Thread t = new Thread(() -> { for (int i = 0; i < n; i += 4096) m.put(i, (byte) 0); }); t.start(); t.join();
      }
      long t1 = bean.getCurrentThreadCpuTime(); long f1 = faults();
      System.out.printf("%s: %.1f ms CPU, %d faults%n", how, (t1 - t0) / 1e6, f1 - f0);
      for (int pass = 0; pass < 2; pass++) {
        long f2 = faults();
        long t2 = bean.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i += 32) { m.putLong(i, i); m.putLong(i + 8, i); m.putLong(i + 16, i); m.putLong(i + 24, i); }
        long t3 = bean.getCurrentThreadCpuTime();
        System.out.printf("  write pass %d: %d faults, %.1f ns per 32 bytes%n", pass, faults() - f2, (t3 - t2) / (n / 32.0));
      }
    }
    Files.deleteIfExists(p);
  }
}
