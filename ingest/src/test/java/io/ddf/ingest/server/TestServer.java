package io.ddf.ingest.server;

import io.ddf.ingest.config.ServerConfig;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * An in-process daemon on a free port, with its log captured, on the daemon's production defaults (a missing key
 * gets a filter that grows, {@code --past-capacity scale}, in the default layout): a suite about another setting
 * (ddf's fixed-size filters, {@code --past-capacity forget}) says so in its own configuration.
 * {@code -Dddf.test.execution=inline|pipeline} sets
 * {@code --execution} for every suite that starts one (the build runs the key suites in the mode that is not the
 * default as well), {@code -Dddf.test.fsync} sets {@code --fsync}, {@code -Dddf.test.io-transport}
 * {@code --io-transport}; a suite's own configuration comes after and may fix them.
 */
public final class TestServer implements AutoCloseable
{
    /** The mode the suites run in: the property, or the daemon's default. */
    static final ServerConfig.Execution EXECUTION = execution(System.getProperty("ddf.test.execution"));
    /** {@code -Dddf.test.fsync=always|everysec|no} sets {@code --fsync} likewise (the default: the daemon's). */
    static final io.ddf.engine.SyncPolicy FSYNC = System.getProperty("ddf.test.fsync", "").isEmpty() ?
        new ServerConfig().fsync : io.ddf.engine.SyncPolicy.parse(System.getProperty("ddf.test.fsync"));

    /**
     * {@code -Dddf.test.io-transport=auto|io_uring|epoll|nio} sets {@code --io-transport} likewise (the default: the
     * daemon's), so that the daemon's suites can be run on another transport.
     */
    static final ServerConfig.IoTransport IO_TRANSPORT = ioTransport(System.getProperty("ddf.test.io-transport"));

    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    final DdfServer server;
    final ServerConfig config;

    public TestServer(final Path dataDir, final Consumer<ServerConfig> configure)
    {
        config = new ServerConfig();
        config.port = 0;
        config.dataDir = dataDir;
        config.execution = EXECUTION;
        config.fsync = FSYNC;
        config.ioTransport = IO_TRANSPORT;
        configure.accept(config);
        server = DdfServer.start(config, new PrintStream(logBytes, true, StandardCharsets.UTF_8));
    }

    /**
     * @return {@code --execution MODE} for a daemon process (the ITs), so it runs in the suites' mode; everything
     *         else is the daemon's default, as users run it.
     */
    static java.util.List<String> executionOptions()
    {
        return java.util.List.of("--execution", EXECUTION.name().toLowerCase(java.util.Locale.ROOT));
    }

    private static ServerConfig.IoTransport ioTransport(final String property)
    {
        return property == null || property.isEmpty() ? new ServerConfig().ioTransport :
            ServerConfig.IoTransport.valueOf(property.toUpperCase(java.util.Locale.ROOT));
    }

    private static ServerConfig.Execution execution(final String property)
    {
        return property == null || property.isEmpty() ? new ServerConfig().execution :
            ServerConfig.Execution.valueOf(property.toUpperCase(java.util.Locale.ROOT));
    }

    public int port()
    {
        return server.port();
    }

    public String log()
    {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    public RespClient client() throws java.io.IOException
    {
        return new RespClient(port());
    }

    @Override
    public void close()
    {
        server.close();
    }

    /** A suite's own setting for ddf's fixed-size filters: what a missing key gets under --past-capacity forget. */
    static void forget(final ServerConfig config)
    {
        config.pastCapacity = ServerConfig.PastCapacity.FORGET;
    }
}
