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
    /** A line of the child's output and when the bench read it. */
    record Line(String text, long nanos)
    {
    }

    private final Process process;
    private final List<Line> lines = new ArrayList<>();
    private final Path log;
    private final Thread reader;

    /**
     * @param command the command line.
     * @param log     where the child's output is copied.
     * @throws IOException when it cannot start.
     */
    ChildApp(final List<String> command, final Path log) throws IOException
    {
        this.log = log;
        this.process = new ProcessBuilder(command).redirectErrorStream(true).start();
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
