import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.persistence.log.*;
import java.lang.management.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

/**
 * Replay variants alternated in one JVM (issue 31): writes RECORDS through a change log once (the default scaling chain,
 * initial capacity 10^6, 1 %; or with QHT a fixed-size QHT of 2^28 memory bits), then, ROUNDS times, replays the same
 * power cut (the file as at the empty checkpoint, the log as forced, another boot id) under each VARIANT: system
 * properties, k=v joined by '/', e.g. ddf.replay.threads=0 (record by record, the grouped two-reader replay) against
 * ddf.replay.threads=1 (one lane). Prints a markdown row per replay (records/s wall, the replaying thread's CPU ms and
 * records per its CPU-second, records per process CPU-second, load) and the medians. One JVM: no JIT or page-cache
 * difference between variants but their order within a round.
 *
 * <pre>java $(bin/ddf jvm-flags) -Xmx4g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
 *     bench/scripts/ReplayVariants.java DIR RECORDS ROUNDS VARIANT,VARIANT,... [QHT]</pre>
 */
public class ReplayVariants {
    static final ThreadMXBean T = ManagementFactory.getThreadMXBean();
    static final com.sun.management.OperatingSystemMXBean P = (com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
    public static void main(String[] a) throws Exception {
        Path dir = Path.of(a[0]); long records = Long.parseLong(a[1]); int rounds = Integer.parseInt(a[2]);
        String[] variants = a[3].split(",");
        boolean qht = a.length > 4 && a[4].equals("QHT");
        String file = qht ? "f.ddf" : "f.ddfs";
        Files.createDirectories(dir);
        Path path = dir.resolve(file), image = dir.resolve("image");
        System.setProperty(BootId.PROPERTY, new UUID(7, 1).toString());
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), LogOptions.DEFAULT)) {
            if (qht) {
                try (DuplicateFilter f = Filters.builder(FilterKind.QHT).memoryBits(1L << 28).seed(42).file(path).log(log).create()) {
                    f.checkpoint(); Files.copy(path, image);
                    for (long i = 0; i < records; i++) f.stream(i * 0x9E3779B97F4A7C15L);
                }
            } else {
                try (BloomChain chain = BloomChain.create(path, 1_000_000, 0.01, false, 2, 42)) {
                    chain.logTo(log); chain.checkpoint(); Files.copy(path, image);
                    for (long i = 0; i < records; i++) chain.add(("click-" + i).getBytes(StandardCharsets.US_ASCII));
                }
            }
            log.force(log.appended());
            copy(dir.resolve("log"), dir.resolve("log-cut"));
        }
        Map<String, List<double[]>> res = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) for (String v : variants) {
            for (String kv : v.split("/")) { String[] f = kv.split("="); System.setProperty(f[0], f[1]); }
            Path d = dir.resolve("r"); if (Files.exists(d)) delete(d); Files.createDirectories(d);
            Files.copy(image, d.resolve(file)); copy(dir.resolve("log-cut"), d.resolve("log"));
            System.setProperty(BootId.PROPERTY, new UUID(r, v.hashCode()).toString());
            try (ChangeLog log = ChangeLog.open(d.resolve("log"), LogOptions.DEFAULT)) {
                long p0 = P.getProcessCpuTime(), c0 = T.getCurrentThreadCpuTime();
                Recovery rec;
                long c, p;
                if (qht) {
                    try (DuplicateFilter f = Filters.open(d.resolve(file), log)) { c = T.getCurrentThreadCpuTime() - c0; p = P.getProcessCpuTime() - p0; rec = f.recovery(); }
                } else {
                    try (BloomChain chain = BloomChain.open(d.resolve(file))) { rec = chain.logTo(log); c = T.getCurrentThreadCpuTime() - c0; p = P.getProcessCpuTime() - p0; }
                }
                double[] x = {rec.records() / (rec.nanos() / 1e9) / 1e6, rec.records() / (c / 1e9) / 1e6, rec.records() / (p / 1e9) / 1e6, c / 1e6};
                res.computeIfAbsent(v, k -> new ArrayList<>()).add(x);
                System.out.printf("| %d | %s | %d | %.2f | %.1f | %.2f | %.2f | %.1f |%n", r + 1, v, rec.records(), x[0], x[3], x[1], x[2], P.getSystemLoadAverage());
            }
        }
        for (var e : res.entrySet()) {
            double[] m = new double[4];
            for (int k = 0; k < 4; k++) { final int kk = k; double[] s = e.getValue().stream().mapToDouble(x -> x[kk]).sorted().toArray(); m[k] = s[s.length / 2]; }
            System.out.printf("median %s: %.2f M records/s wall, %.0f CPU ms, %.2f M per CPU-s (replaying thread), %.2f M per process CPU-s%n", e.getKey(), m[0], m[3], m[1], m[2]);
        }
        delete(dir);
    }
    static void copy(Path from, Path to) throws Exception { Files.createDirectories(to); try (Stream<Path> s = Files.list(from)) { for (Path f : s.filter(p -> p.toString().endsWith(".ddflog") && !p.getFileName().toString().startsWith(".")).toList()) Files.copy(f, to.resolve(f.getFileName())); } }
    static void delete(Path d) throws Exception { try (Stream<Path> s = Files.walk(d)) { for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(p); } }
}
