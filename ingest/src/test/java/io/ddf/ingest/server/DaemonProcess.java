package io.ddf.ingest.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** A daemon process ({@code java -jar target/ddf.jar serve}) and its log, for the ITs. */
final class DaemonProcess
{
    static final Path JAR = Path.of(System.getProperty("ddf.jar", "target/ddf.jar"));

    /** Fails an IT run before the daemon's jar is built ({@code mvn verify} packages it first). */
    static void assertJarBuilt()
    {
        org.junit.jupiter.api.Assertions.assertTrue(java.nio.file.Files.isRegularFile(JAR),
            "no " + JAR.toAbsolutePath() + "; run mvn verify");
    }
    private static final Pattern PORT = Pattern.compile("serving RESP on [^ ]*:(\\d+)");

    final Process process;
    final int port;
    final StringBuffer log = new StringBuffer();

    private DaemonProcess(final Process process) throws IOException
    {
        this.process = process;
        final BufferedReader err = new BufferedReader(new InputStreamReader(process.getErrorStream(),
            StandardCharsets.UTF_8));
        int found = -1;
        for (String line = err.readLine(); line != null; line = err.readLine())
        {
            log.append(line).append('\n');
            final Matcher m = PORT.matcher(line);
            if (m.find())
            {
                found = Integer.parseInt(m.group(1));
                break;
            }
        }
        assertTrue(found > 0, "the daemon did not start: " + log);
        this.port = found;
        final Thread drain = new Thread(() ->
        {
            try
            {
                for (String line = err.readLine(); line != null; line = err.readLine())
                {
                    log.append(line).append('\n');
                }
            }
            catch (final IOException ignore)
            {
                // the process is gone
            }
        }, "daemon-log");
        drain.setDaemon(true);
        drain.start();
    }

    static DaemonProcess start(final Path data, final List<String> prefix) throws IOException
    {
        return start(data, prefix, List.of(), java.util.Map.of());
    }

    /**
     * @param data   the data directory.
     * @param prefix words before {@code java} (e.g. prlimit).
     * @param extra  more options of {@code ddf serve} ({@code --execution} among them replaces the suites' mode).
     * @param env    more environment variables.
     * @return the running daemon, once it has said which port it serves.
     */
    static DaemonProcess start(final Path data, final List<String> prefix, final List<String> extra,
        final java.util.Map<String, String> env) throws IOException
    {
        final List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(JAR.toString());
        command.add("serve");
        command.add("--port");
        command.add("0");
        command.add("--data-dir");
        command.add(data.toString());
        if (!extra.contains("--execution"))
        {
            command.addAll(TestServer.executionOptions());
        }
        command.addAll(extra);
        final ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(env);
        return new DaemonProcess(builder.start());
    }

    String log()
    {
        return log.toString();
    }

    /**
     * The load of the restart tests: BF.ADD {@code key} of new items ({@code item-N} from {@code from}), 16 pipelined,
     * for {@code millis} or until {@code limit}; each reply is told with its item, in order.
     *
     * @return the next item.
     */
    long pipelinedAdds(final String key, final long from, final long millis, final long limit,
        final java.util.function.BiConsumer<String, Object> replied) throws IOException
    {
        final int pipeline = 16;
        long next = from;
        final long end = System.currentTimeMillis() + millis;
        try (RespClient client = new RespClient(port))
        {
            final java.io.OutputStream out = client.socket().getOutputStream();
            while (System.currentTimeMillis() < end && next + pipeline < limit)
            {
                final String[] items = new String[pipeline];
                final java.io.ByteArrayOutputStream batch = new java.io.ByteArrayOutputStream();
                for (int i = 0; i < pipeline; i++)
                {
                    items[i] = "item-" + next++;
                    batch.write(RespClient.encode("BF.ADD", key, items[i]));
                }
                out.write(batch.toByteArray());
                out.flush();
                for (final String item : items)
                {
                    replied.accept(item, client.read());
                }
            }
        }
        return next;
    }

    void kill() throws InterruptedException
    {
        process.destroyForcibly(); // SIGKILL; idempotent
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    }

    void stop() throws InterruptedException
    {
        process.destroy(); // SIGTERM
        if (!process.waitFor(120, TimeUnit.SECONDS))
        {
            process.destroyForcibly();
        }
    }
}
