package io.ddf.kafka.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One Kafka Streams application as a child JVM: its stderr and stdout read line by line, each line kept with the
 * time it arrived (and copied to a log file), and its peak resident set read from {@code /proc}.
 */
final class ChildApp implements AutoCloseable
{
    /** A clock tick of /proc/PID/stat: USER_HZ is 100 on Linux whatever the kernel's HZ. */
    private static final long TICK_NANOS = 10_000_000L;

    /** A line of the child's output and when the bench read it. */
    record Line(String text, long nanos)
    {
    }

    private final Process process;
    private final List<Line> lines = new ArrayList<>();
    private final Path log;
    private final Thread reader;
    private final List<long[]> cpuSamples = new ArrayList<>();

    /**
     * @param command the command line.
     * @param log     where the child's output is copied.
     * @throws IOException when it cannot start.
     */
    ChildApp(final List<String> command, final Path log) throws IOException
    {
        this.log = log;
        this.process = new ProcessBuilder(command).redirectErrorStream(true).start();
        // a bench stopped by SIGTERM or Ctrl-C takes its applications with it
        final Process child = process;
        Runtime.getRuntime().addShutdownHook(new Thread(child::destroyForcibly, "stop-" + process.pid()));
        this.reader = new Thread(this::read, "child-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    private void read()
    {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true))
        {
            String line;
            while ((line = in.readLine()) != null)
            {
                final long now = System.nanoTime();
                out.println(line);
                synchronized (lines)
                {
                    lines.add(new Line(line, now));
                    lines.notifyAll();
                }
            }
        }
        catch (final IOException e)
        {
            // the child is gone
        }
    }

    /**
     * @param match   what the line must satisfy.
     * @param timeout how long to wait.
     * @return the first line (from the child's start) that matches.
     * @throws IllegalStateException when the child exits or the time runs out first, with its log.
     * @throws InterruptedException  when interrupted.
     */
    Line await(final Predicate<String> match, final Duration timeout) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lines)
        {
            int seen = 0;
            while (true)
            {
                for (; seen < lines.size(); seen++)
                {
                    if (match.test(lines.get(seen).text()))
                    {
                        return lines.get(seen);
                    }
                }
                final long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && !reader.isAlive()))
                {
                    throw new IllegalStateException((process.isAlive() ? "timed out" : "the application exited (" +
                        process.exitValue() + ")") + " waiting for its line; log " + log + ":\n" + tail());
                }
                lines.wait(Math.max(1, Math.min(200, left / 1_000_000)));
            }
        }
    }

    /** @return the last lines of the child's output. */
    String tail()
    {
        synchronized (lines)
        {
            final StringBuilder s = new StringBuilder();
            for (int i = Math.max(0, lines.size() - 30); i < lines.size(); i++)
            {
                s.append(lines.get(i).text()).append('\n');
            }
            return s.toString();
        }
    }

    /**
     * @return the CPU time the child has used so far, user and system, all its threads (JIT and GC included), in
     *         nanoseconds, from {@code /proc/PID/stat} (clock ticks of 10 ms); -1 where /proc has none.
     */
    long cpuNanos()
    {
        try
        {
            final String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            // the fields after the command name, which is in brackets and may hold spaces: state is field 3,
            // utime field 14 and stime field 15 (proc(5))
            final String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_NANOS;
        }
        catch (final IOException | RuntimeException e)
        {
            return -1;
        }
    }

    /**
     * Samples {@link #cpuNanos} every {@code period} until the child exits, so that the CPU time at a moment seen
     * afterwards (the last output record's arrival) can be looked up.
     *
     * @param period between samples.
     */
    void sampleCpu(final Duration period)
    {
        final Thread sampler = new Thread(() ->
        {
            while (process.isAlive())
            {
                final long cpu = cpuNanos();
                final long now = System.nanoTime();
                synchronized (cpuSamples)
                {
                    cpuSamples.add(new long[] {now, cpu});
                }
                try
                {
                    Thread.sleep(period.toMillis());
                }
                catch (final InterruptedException e)
                {
                    return;
                }
            }
        }, "cpu-" + process.pid());
        sampler.setDaemon(true);
        sampler.start();
    }

    /**
     * @param nanos a moment ({@link System#nanoTime}).
     * @return the CPU time of the first sample taken at or after it (the last sample if none), or -1 without samples.
     */
    long cpuNanosAt(final long nanos)
    {
        synchronized (cpuSamples)
        {
            for (final long[] sample : cpuSamples)
            {
                if (sample[0] >= nanos)
                {
                    return sample[1];
                }
            }
            return cpuSamples.isEmpty() ? -1 : cpuSamples.get(cpuSamples.size() - 1)[1];
        }
    }

    /** @return the child's peak resident set (VmHWM) in bytes, or -1 where /proc has none. */
    long peakRssBytes()
    {
        return status("VmHWM:");
    }

    /**
     * @param field a field of {@code /proc/PID/status} in kB ({@code VmHWM:}, {@code RssAnon:}, {@code RssFile:}).
     * @return its value in bytes, or -1.
     */
    long status(final String field)
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status")))
            {
                if (line.startsWith(field))
                {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        }
        catch (final IOException | NumberFormatException e)
        {
            return -1;
        }
        return -1;
    }

    /** @return the child's process id. */
    long pid()
    {
        return process.pid();
    }

    /**
     * Stops the child with SIGTERM (a clean close) and waits for it.
     *
     * @return its exit status.
     * @throws InterruptedException when interrupted.
     */
    int stop() throws InterruptedException
    {
        process.destroy();
        if (!process.waitFor(90, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor();
        }
        reader.join(5_000);
        return process.exitValue();
    }

    @Override
    public void close()
    {
        process.destroyForcibly();
    }
}
