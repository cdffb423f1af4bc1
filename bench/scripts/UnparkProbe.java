// Issue 29, standalone (not part of the build): what LockSupport.unpark of a parked thread costs its caller in
// CPU (a turn wakes the sealing thread so). `java bench/scripts/UnparkProbe.java`

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.locks.LockSupport;
import java.util.Arrays;

public class UnparkProbe {
    static volatile boolean stop;
    public static void main(String[] a) throws Exception {
        ThreadMXBean t = ManagementFactory.getThreadMXBean();
        Thread p = new Thread(() -> { while (!stop) LockSupport.park(); });
        p.setDaemon(true); p.start();
        int n = 400;
        long[] cpu = new long[n];
        for (int i = 0; i < n; i++) {
            Thread.sleep(5); // the other thread parks again
            long c0 = t.getCurrentThreadCpuTime();
            LockSupport.unpark(p);
            cpu[i] = t.getCurrentThreadCpuTime() - c0;
        }
        long[] empty = new long[n];
        for (int i = 0; i < n; i++) {
            Thread.sleep(5);
            long c0 = t.getCurrentThreadCpuTime();
            empty[i] = t.getCurrentThreadCpuTime() - c0;
        }
        Arrays.sort(cpu); Arrays.sort(empty);
        System.out.printf("unpark of a parked thread, CPU of the caller: median %.1f us, p90 %.1f us, max %.1f us; empty: median %.1f us, p90 %.1f, max %.1f us%n",
            cpu[n/2]/1e3, cpu[n*9/10]/1e3, cpu[n-1]/1e3, empty[n/2]/1e3, empty[n*9/10]/1e3, empty[n-1]/1e3);
        stop = true; LockSupport.unpark(p);
    }
}
