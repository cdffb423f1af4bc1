package io.ddf.ingest.server;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.Consumer;

/** An in-process daemon on a free port, with its log captured. */
final class TestServer implements AutoCloseable
{
    private final ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
    final DdfServer server;
    final ServerConfig config;

    TestServer(final Path dataDir, final Consumer<ServerConfig> configure)
    {
        config = new ServerConfig();
        config.port = 0;
        config.dataDir = dataDir;
        configure.accept(config);
        server = DdfServer.start(config, new PrintStream(logBytes, true, StandardCharsets.UTF_8));
    }

    int port()
    {
        return server.port();
    }

    String log()
    {
        return logBytes.toString(StandardCharsets.UTF_8);
    }

    RespClient client() throws java.io.IOException
    {
        return new RespClient(port());
    }

    @Override
    public void close()
    {
        server.close();
    }
}
