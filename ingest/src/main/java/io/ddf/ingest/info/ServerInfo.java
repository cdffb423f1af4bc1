package io.ddf.ingest.info;

import io.ddf.engine.DuplicateFilter;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.session.ClientRegistry;
import io.ddf.ingest.store.FilterStore;
import io.ddf.ingest.store.KeyNames;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the daemon says of itself: INFO's text (Redis's sections, then {@link InfoExtras}'), CONFIG GET's values, and
 * the line it logs once it serves.
 */
public final class ServerInfo
{
    /** The Redis version INFO and HELLO report, so clients that parse it are content. */
    public static final String REDIS_VERSION = "7.0.0";

    private final ServerConfig config;
    private final FilterStore store;
    private final ClientRegistry clients;
    private final CommandTable commands;
    private final Ports ports;
    private final String multiplexingApi;
    private final long startNanos = System.nanoTime();

    /** The ports the daemon listens on, once it does (-1 for one it does not). */
    public interface Ports
    {
        /** @return the RESP port. */
        int port();

        /** @return the RESP over TLS port. */
        int tlsPort();

        /** @return the raw feed's port. */
        int feedPort();

        /** @return the metrics endpoint's port. */
        int metricsPort();
    }

    /**
     * @param config   the daemon's settings.
     * @param store    the filters.
     * @param clients  the connections.
     * @param commands the commands served (commandstats).
     * @param ports    where the daemon listens.
     * @param multiplexingApi the event loops' transport (epoll, io_uring, nio): INFO's {@code multiplexing_api},
     *                 as Redis names its own (epoll).
     */
    public ServerInfo(final ServerConfig config, final FilterStore store, final ClientRegistry clients,
        final CommandTable commands, final Ports ports, final String multiplexingApi)
    {
        this.multiplexingApi = multiplexingApi;
        this.config = config;
        this.store = store;
        this.clients = clients;
        this.commands = commands;
        this.ports = ports;
    }

    /**
     * @param id a client's id, or -1 for every client.
     * @return CLIENT LIST's lines.
     */
    public String clientList(final long id)
    {
        return clients.list(id);
    }

    /** @return what CONFIG GET reports. */
    public Map<String, String> configValues()
    {
        final Map<String, String> values = new LinkedHashMap<>();
        values.put("save", "");
        values.put("appendonly", "no");
        values.put("port", Integer.toString(ports.port()));
        values.put("bind", config.bind);
        values.put("maxclients", Integer.toString(config.maxClients));
        values.put("timeout", Integer.toString(config.idleTimeoutSeconds));
        values.put("databases", "1");
        values.put("proto-max-bulk-len", Long.toString(config.protoMaxBulkLen));
        values.put("dir", store.dir().toAbsolutePath().toString());
        return values;
    }

    /**
     * @return commands run since the start (or CONFIG RESETSTAT): every command's calls, as Redis counts those it
     *         runs (a command refused before running, as an unknown one or one under MULTI, is not counted; EXEC's
     *         are).
     */
    private long processed()
    {
        long sum = 0;
        for (final io.ddf.ingest.dispatch.Command c : commands.all())
        {
            sum += c.calls();
        }
        return sum;
    }

    /** @return the INFO text. */
    public String info()
    {
        long elements = 0;
        long duplicates = 0;
        int filters;
        final FilterStore.Lease all = store.leaseAll();
        try
        {
            final Map<String, DuplicateFilter> snapshot = store.snapshot();
            filters = snapshot.size();
            for (final DuplicateFilter filter : snapshot.values())
            {
                elements += filter.elements();
                duplicates += filter.duplicates();
            }
        }
        finally
        {
            all.close();
        }
        // the filters that grow (what a missing key gets by default) count the items they hold: RedisBloom's
        // "Number of items inserted", the adds of items not seen before (they keep no count of duplicates)
        final long[] grown = new long[2];
        store.scaling().forEach((key, filter) ->
        {
            grown[0]++;
            grown[1] += filter.items();
        });
        filters += (int)grown[0];
        elements += grown[1];
        String version;
        try
        {
            version = "ddf " + BuildVersion.version();
        }
        catch (final IOException e)
        {
            version = "ddf";
        }
        final String nl = "\r\n";
        return "# Server" + nl +
            "redis_version:" + REDIS_VERSION + nl +
            "ddf_version:" + version.replace("ddf ", "") + nl +
            "redis_mode:standalone" + nl +
            "arch_bits:64" + nl +
            "multiplexing_api:" + multiplexingApi + nl +
            "process_id:" + ProcessHandle.current().pid() + nl +
            "tcp_port:" + ports.port() + nl +
            "uptime_in_seconds:" + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos) + nl +
            nl + "# Clients" + nl +
            "connected_clients:" + clients.connected() + nl +
            "maxclients:" + config.maxClients + nl +
            nl + "# Stats" + nl +
            "total_connections_received:" + clients.received() + nl +
            "total_commands_processed:" + processed() + nl +
            "filters:" + filters + nl +
            "elements:" + elements + nl +
            "duplicates:" + duplicates + nl +
            "unseen:" + (elements - duplicates) + nl +
            "scaling_filters:" + store.scaling().openCount() + nl +
            "scaling_filter_bytes:" + store.scaling().bytes() + nl +
            nl + "# Keyspace" + nl +
            (store.size() > 0 ? "db0:keys=" + store.size() + ",expires=0,avg_ttl=0" + nl : "") +
            InfoExtras.render(new InfoExtras(commands, store).sections());
    }

    /**
     * @param security what secures the endpoints and who may connect ({@code ServerSecurity#describe}).
     * @return the line logged once the daemon serves: where, what it holds, and what else listens.
     */
    public String startLine(final String security)
    {
        final StringBuilder line = new StringBuilder("ddf: serving RESP on ").append(config.bind)
            .append(ports.port() < 0 ? " (plain port off)" : ":" + ports.port());
        if (ports.tlsPort() >= 0)
        {
            line.append(", RESP over TLS on port ").append(ports.tlsPort());
        }
        line.append(", data dir ").append(store.dir().toAbsolutePath()).append(", ")
            .append(store.openCount()).append(store.openCount() == 1 ? " filter" : " filters").append(" loaded");
        if (store.skipped() > 0)
        {
            line.append(" (").append(store.skipped()).append(" files skipped)");
        }
        if (ports.feedPort() >= 0)
        {
            line.append(", raw feed (").append(config.feedFormat.name().toLowerCase(Locale.ROOT))
                .append(") on port ").append(ports.feedPort()).append(" into filter '")
                .append(KeyNames.display(config.feedFilter)).append("', judged ")
                .append(config.feedInline() ? "inline" : "through the ring");
            if (config.forward != null)
            {
                line.append(", unseen records forwarded to ").append(config.forward.getHostString()).append(':')
                    .append(config.forward.getPort());
            }
        }
        if (ports.metricsPort() >= 0)
        {
            line.append(", metrics on http://").append(config.metricsBind).append(':').append(ports.metricsPort())
                .append("/metrics");
        }
        if (config.requirePass != null)
        {
            line.append(", password required");
        }
        return line.append(security).toString();
    }
}
