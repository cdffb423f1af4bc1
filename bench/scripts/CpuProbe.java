// Issue 29, standalone (not part of the build): how far the thread CPU clock (ThreadMXBean, as the window-rotation
// bench times a call) can be trusted on this machine. `java bench/scripts/CpuProbe.java SECONDS`

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/** A fixed piece of pure computation (no memory beyond registers, no system call) timed by the thread's CPU clock. */
public class CpuProbe {
    static long faults() throws Exception {
        String s = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[7]) + Long.parseLong(f[9]);
    }
    public static void main(String[] a) throws Exception {
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        long seconds = Long.parseLong(a[0]);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long x = 1;
        long n = 0, over1 = 0, over5 = 0, max = 0, maxWall = 0, sum = 0, faultyOver1 = 0;
        long[] hist = new long[64];
        while (System.nanoTime() < end) {
            long f0 = faults();
            long c0 = t.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            for (int i = 0; i < 200_000; i++) { x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29; }
            long c = t.getCurrentThreadCpuTime() - c0;
            long w = System.nanoTime() - w0;
            long f = faults() - f0;
            n++; sum += c;
            if (c > 1_000_000) { over1++; if (f > 0) faultyOver1++; }
            if (c > 5_000_000) over5++;
            if (c > max) { max = c; maxWall = w; }
            hist[63 - Long.numberOfLeadingZeros(Math.max(1, c))]++;
        }
        System.out.printf("chunks %d, CPU mean %.3f ms, max %.3f ms (wall %.3f ms), over 1 ms %d (with a page fault %d), over 5 ms %d (x=%d)%n",
            n, sum / 1e6 / n, max / 1e6, maxWall / 1e6, over1, faultyOver1, over5, x & 1);
    }
}
