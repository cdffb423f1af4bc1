package io.ddf.ingest.config;

import io.ddf.ingest.server.ServeCommand;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** ServerConfig owns every default and every check: serve's options start from it, and each check names its option. */
class ServerConfigTest
{
    @Test
    void serveWithoutOptionsIsTheConfigurationsDefaults() throws IllegalAccessException
    {
        final ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs();
        final ServerConfig fromOptions = serve.config();
        final ServerConfig defaults = new ServerConfig();
        for (final Field field : ServerConfig.class.getFields())
        {
            if (!Modifier.isStatic(field.getModifiers()) && !field.getName().equals("requirePass"))
            {
                assertEquals(field.get(defaults), field.get(fromOptions), field.getName());
            }
        }
        assertEquals(Math.max(1, Runtime.getRuntime().availableProcessors() / 2), defaults.ioThreads,
            "one default for the event loops: half the cores");
    }

    /** {@code --feed-mode}: each value parsed, a wrong one refused by name, and auto resolved by the cores. */
    @Test
    void feedModeParsesAndAutoFollowsTheCores()
    {
        final ServeCommand serve = new ServeCommand();
        new CommandLine(serve).parseArgs("--feed-mode", "ring");
        final ServerConfig ring = serve.config();
        assertEquals(ServerConfig.FeedMode.RING, ring.feedMode);
        assertEquals(false, ring.feedInline());
        new CommandLine(serve).parseArgs("--feed-mode", "inline");
        assertEquals(true, serve.config().feedInline());
        final ServerConfig auto = new ServerConfig();
        assertEquals(ServerConfig.FeedMode.AUTO, auto.feedMode, "auto by default");
        assertEquals(Runtime.getRuntime().availableProcessors() <= ServerConfig.FEED_INLINE_MAX_PROCESSORS,
            auto.feedInline());
        final CommandLine.ParameterException wrong = assertThrows(CommandLine.ParameterException.class,
            () -> new CommandLine(new ServeCommand()).parseArgs("--feed-mode", "pipeline"));
        org.junit.jupiter.api.Assertions.assertTrue(wrong.getMessage().contains("expected inline or ring or auto, " +
            "got 'pipeline'"), wrong.getMessage());
    }

    /** {@code --io-transport}: each value parsed (io_uring with its underscore), auto by default, a wrong one refused. */
    @Test
    void ioTransportParsesEachTransport()
    {
        assertEquals(ServerConfig.IoTransport.AUTO, new ServerConfig().ioTransport, "auto by default");
        for (final ServerConfig.IoTransport transport : ServerConfig.IoTransport.values())
        {
            final ServeCommand serve = new ServeCommand();
            new CommandLine(serve).parseArgs("--io-transport",
                transport.name().toLowerCase(java.util.Locale.ROOT));
            assertEquals(transport, serve.config().ioTransport);
        }
        final CommandLine.ParameterException wrong = assertThrows(CommandLine.ParameterException.class,
            () -> new CommandLine(new ServeCommand()).parseArgs("--io-transport", "kqueue"));
        org.junit.jupiter.api.Assertions.assertTrue(wrong.getMessage().contains("expected auto or io_uring or epoll " +
            "or nio, got 'kqueue'"), wrong.getMessage());
    }

    private static void refused(final String expected, final Consumer<ServerConfig> bad)
    {
        final ServerConfig config = new ServerConfig();
        bad.accept(config);
        assertEquals(expected, assertThrows(IllegalArgumentException.class, config::validate).getMessage());
    }

    @Test
    void eachCheckNamesItsOption()
    {
        refused("--auth-timeout must be 0 or more, got -1", c -> c.authTimeoutSeconds = -1);
        refused("--max-request-bytes must be at least 1, got 0", c -> c.maxRequestBytes = 0);
        refused("--max-input-bytes (10) must be at least --max-request-bytes (20), or no command of that size could " +
            "ever be read", c ->
            {
                c.maxInputBytes = 10;
                c.maxRequestBytes = 20;
            });
        refused("--max-clients must be at least 1, got 0", c -> c.maxClients = 0);
        refused("--max-filters must be at least 1, got 0", c -> c.maxFilters = 0);
        refused("--max-bulk-bytes must be at least 1, got 0", c -> c.maxBulkBytes = 0);
        refused("--max-item-bytes must be at least 1, got 0", c -> c.maxItemBytes = 0);
        refused("--client-output-limit must be at least 1, got 0", c -> c.clientOutputLimit = 0);
        refused("--idle-timeout must be 0 or more, got -5", c -> c.idleTimeoutSeconds = -5);
        refused("--ring-size must be a power of two, got 1000", c -> c.ringSize = 1000);
        refused("--io-threads must be at least 1, got 0", c -> c.ioThreads = 0);
        refused("--io-spin-micros must be 0 or more, got -1", c -> c.ioSpinMicros = -1);
        refused("--metrics-port must be 0 to 65535, got 70000", c -> c.metricsPort = 70_000);
        refused("--forward needs --feed-port", c -> c.forward = InetSocketAddress.createUnresolved("h", 1));
        refused("the raw feed on 0.0.0.0 would take records from anyone who can reach it: set a password " +
            "(--requirepass-file or DDF_REQUIREPASS) or bind to a loopback address", c ->
            {
                c.feedPort = 0;
                c.bind = "0.0.0.0";
            });
        new ServerConfig().validate(); // the defaults pass
    }
}
