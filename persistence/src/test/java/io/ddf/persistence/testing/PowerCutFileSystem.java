package io.ddf.persistence.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A directory whose power can be cut: the {@code powercut_fs.py} FUSE file system (beside this class; the method of
 * Jepsen's LazyFS) mounted over a backing directory. Writes not yet synced live in that process's memory;
 * {@link #cut} kills the processes under test, drops those writes, discards every write the kernel still sends
 * (a dead process's dirty mapped pages), unmounts and mounts again from the backing directory alone.
 *
 * <p>Tests call {@link #assumeAvailable()} first: it skips them, saying why, where FUSE cannot be mounted (no
 * {@code /dev/fuse}, no {@code fusermount3}, no {@code python3-fusepy}); in CI ({@code CI=true}), where
 * {@code .ci/run} installs the packages, only a missing {@code /dev/fuse} skips, and anything else fails.
 */
public final class PowerCutFileSystem implements AutoCloseable
{
    private static final String SCRIPT = "powercut_fs.py";
    private static final long MOUNT_TIMEOUT_MS = 30_000;
    private static String unavailable;
    private static boolean probed;

    private final Path work;
    private final Path durable;
    private final Path mountPoint;
    private final Path control;
    private final Path script;
    private final String python;
    private Process daemon;
    private int mounts;

    private PowerCutFileSystem(final Path work, final String python) throws IOException
    {
        this.work = work;
        this.python = python;
        this.durable = Files.createDirectories(work.resolve("durable"));
        this.mountPoint = Files.createDirectories(work.resolve("mnt"));
        this.control = work.resolve("control.sock");
        this.script = work.resolve(SCRIPT);
        try (InputStream in = PowerCutFileSystem.class.getResourceAsStream(SCRIPT))
        {
            if (in == null)
            {
                throw new IOException(SCRIPT + " is not on the class path beside " + PowerCutFileSystem.class);
            }
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Skips the calling test (JUnit assumption) with the reason when the file system cannot be mounted here; fails it
     * in CI unless the machine has no {@code /dev/fuse} at all.
     */
    public static synchronized void assumeAvailable()
    {
        final String reason = unavailableReason();
        if (reason == null)
        {
            return;
        }
        if ("true".equals(System.getenv("CI")) && Files.exists(Path.of("/dev/fuse")))
        {
            Assertions.fail("the power-cut file system cannot run in CI, where .ci/run installs fuse3 and " +
                "python3-fusepy: " + reason);
        }
        Assumptions.abort("power-cut tests skipped: " + reason);
    }

    /** @return why the file system cannot be mounted here, or null when it can (probed once, by a trial mount). */
    public static synchronized String unavailableReason()
    {
        if (!probed)
        {
            probed = true;
            unavailable = probe();
        }
        return unavailable;
    }

    private static String probe()
    {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("linux"))
        {
            return "FUSE is tested on Linux only";
        }
        if (!Files.isReadable(Path.of("/dev/fuse")) || !Files.isWritable(Path.of("/dev/fuse")))
        {
            return "no usable /dev/fuse (a container needs --device /dev/fuse and CAP_SYS_ADMIN)";
        }
        if (unmountCommand() == null)
        {
            return "neither fusermount3 nor fusermount is on the PATH (Debian: apt-get install fuse3)";
        }
        final String python = findPython();
        if (python == null)
        {
            return "no python3 that imports fusepy (Debian: apt-get install python3-fusepy; or set " +
                "DDF_POWERCUT_PYTHON to an interpreter that has it)";
        }
        Path trial = null;
        try
        {
            trial = Files.createTempDirectory("ddf-powercut-probe");
            try (PowerCutFileSystem fs = new PowerCutFileSystem(trial, python))
            {
                fs.start();
                Files.writeString(fs.root().resolve("probe"), "probe");
            }
            return null;
        }
        catch (final IOException | RuntimeException | AssertionError e)
        {
            return "a trial mount failed: " + e.getMessage();
        }
        finally
        {
            deleteQuietly(trial);
        }
    }

    /**
     * Mounts a new power-cut file system under {@code work} ({@code work/durable} is the backing directory,
     * {@code work/mnt} the mount point).
     *
     * @param work an empty directory on a local file system.
     * @return the mounted file system.
     * @throws IOException when it cannot be mounted.
     */
    public static PowerCutFileSystem mount(final Path work) throws IOException
    {
        final String python = findPython();
        if (python == null)
        {
            throw new IOException("no python3 that imports fusepy");
        }
        final PowerCutFileSystem fs = new PowerCutFileSystem(work, python);
        fs.start();
        return fs;
    }

    /** @return the mount point: where the process under test keeps its files. */
    public Path root()
    {
        return mountPoint;
    }

    /** @return the backing directory: what survived every cut so far (read it only between cuts). */
    public Path durable()
    {
        return durable;
    }

    /**
     * @return the file system's counters as JSON: writes, fsyncs, pages made durable, pages pending, pages dropped
     *         at cuts, writes discarded after a cut.
     * @throws IOException when the control socket does not answer.
     */
    public String stats() throws IOException
    {
        return command("stats");
    }

    /**
     * Cuts the power: kills each process under test with SIGKILL and waits for it to die; then drops every write
     * not yet synced and discards whatever the kernel still writes back; unmounts; mounts again from the durable
     * layer alone. The processes die first, so none can acknowledge anything after the cut.
     *
     * @param victims the processes using the file system (they must not be this JVM).
     * @return what the file system said when it dropped the volatile layer.
     * @throws IOException when a step fails.
     */
    public String cut(final ProcessHandle... victims) throws IOException
    {
        for (final ProcessHandle victim : victims)
        {
            victim.destroyForcibly();
        }
        for (final ProcessHandle victim : victims)
        {
            try
            {
                victim.onExit().get(60, TimeUnit.SECONDS);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted waiting for " + victim.pid() + " to die", e);
            }
            catch (final ExecutionException | TimeoutException e)
            {
                throw new IOException("process " + victim.pid() + " did not die after SIGKILL", e);
            }
        }
        final String dropped = command("cut");
        stop();
        start();
        return dropped;
    }

    @Override
    public void close() throws IOException
    {
        stop();
    }

    private void start() throws IOException
    {
        mounts++;
        Files.deleteIfExists(control);
        final Path log = work.resolve("powercut_fs-" + mounts + ".log");
        daemon = new ProcessBuilder(python, script.toString(), durable.toString(), mountPoint.toString(),
            "--control", control.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .start();
        final long deadline = System.currentTimeMillis() + MOUNT_TIMEOUT_MS;
        while (!mounted() || !Files.exists(control))
        {
            if (!daemon.isAlive())
            {
                throw new IOException("powercut_fs exited with " + daemon.exitValue() + ": " + Files.readString(log));
            }
            if (System.currentTimeMillis() > deadline)
            {
                daemon.destroyForcibly();
                throw new IOException("powercut_fs did not mount " + mountPoint + " within " + MOUNT_TIMEOUT_MS +
                    " ms: " + Files.readString(log));
            }
            sleep(20);
        }
        final String pong = command("ping");
        if (!pong.equals("ok"))
        {
            throw new IOException("powercut_fs answered " + pong + " to ping");
        }
    }

    private void stop() throws IOException
    {
        if (daemon == null)
        {
            return;
        }
        final Process stopping = daemon;
        daemon = null;
        if (mounted())
        {
            // lazy: detached now even if something still holds a file (a process that could not be killed)
            run(unmountCommand(), "-u", "-z", mountPoint.toString());
        }
        try
        {
            if (!stopping.waitFor(10, TimeUnit.SECONDS))
            {
                stopping.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            stopping.destroyForcibly();
        }
    }

    private boolean mounted() throws IOException
    {
        final String point = mountPoint.toRealPath().toString();
        for (final String line : Files.readAllLines(Path.of("/proc/self/mountinfo")))
        {
            final String[] fields = line.split(" ");
            final int dash = line.indexOf(" - ");
            if (fields.length > 4 && fields[4].equals(point) && dash > 0 && line.substring(dash + 3).startsWith("fuse"))
            {
                return true;
            }
        }
        return false;
    }

    private String command(final String command) throws IOException
    {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX))
        {
            channel.connect(UnixDomainSocketAddress.of(control));
            final OutputStream out = Channels.newOutputStream(channel);
            out.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            final BufferedReader in = new BufferedReader(new InputStreamReader(Channels.newInputStream(channel),
                StandardCharsets.UTF_8));
            final String reply = in.readLine();
            if (reply == null)
            {
                throw new IOException("powercut_fs closed the control socket on " + command);
            }
            return reply;
        }
    }

    private static String findPython()
    {
        final List<String> candidates = new ArrayList<>();
        final String given = System.getenv("DDF_POWERCUT_PYTHON");
        if (given != null && !given.isBlank())
        {
            candidates.add(given);
        }
        candidates.add("/usr/bin/python3"); // Debian's, where python3-fusepy installs
        candidates.add("python3");
        for (final String candidate : candidates)
        {
            try
            {
                final Process check = new ProcessBuilder(candidate, "-c",
                    "try:\n import fusepy as f\nexcept ImportError:\n import fuse as f\nf.FUSE; f.Operations")
                    .redirectErrorStream(true).start();
                check.getInputStream().readAllBytes();
                if (check.waitFor(30, TimeUnit.SECONDS) && check.exitValue() == 0)
                {
                    return candidate;
                }
            }
            catch (final IOException e)
            {
                // not installed; try the next
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private static String unmountCommand()
    {
        for (final String name : new String[] {"fusermount3", "fusermount"})
        {
            for (final String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":"))
            {
                if (Files.isExecutable(Path.of(dir, name)))
                {
                    return Path.of(dir, name).toString();
                }
            }
        }
        return null;
    }

    private static void run(final String... command) throws IOException
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try
        {
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0)
            {
                throw new IOException(String.join(" ", command) + " failed: " + out);
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
    }

    private static void sleep(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void deleteQuietly(final Path directory)
    {
        if (directory == null)
        {
            return;
        }
        try (var walk = Files.walk(directory))
        {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ignore)
        {
            // a temporary directory
        }
    }
}
