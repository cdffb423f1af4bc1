package io.ddf.ingest.server;

import io.ddf.engine.DuplicateFilter;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the daemon says of itself: INFO's text (Redis's sections, then {@link InfoExtras}'), CONFIG GET's values, and
 * the line it logs once it serves.
 */
final class ServerInfo
{
    /** The Redis version INFO and HELLO report, so clients that parse it are content. */
    static final String REDIS_VERSION = "7.0.0";

    private final DdfServer server;
    private final long startNanos = System.nanoTime();

    /** @param server the daemon. */
    ServerInfo(final DdfServer server)
    {
        this.server = server;
    }

    /** @return what CONFIG GET reports. */
    Map<String, String> configValues()
    {
        final ServerConfig config = server.config();
        final Map<String, String> values = new LinkedHashMap<>();
        values.put("save", "");
        values.put("appendonly", "no");
        values.put("port", Integer.toString(server.port()));
        values.put("bind", config.bind);
        values.put("maxclients", Integer.toString(config.maxClients));
        values.put("timeout", Integer.toString(config.idleTimeoutSeconds));
        values.put("databases", "1");
        values.put("proto-max-bulk-len", Integer.toString(config.maxBulkBytes));
        values.put("dir", server.store().dir().toAbsolutePath().toString());
        return values;
    }

    /** @return the INFO text. */
    String info()
    {
        final FilterStore store = server.store();
        final ClientRegistry clients = server.clients();
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
            "process_id:" + ProcessHandle.current().pid() + nl +
            "tcp_port:" + server.port() + nl +
            "uptime_in_seconds:" + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos) + nl +
            nl + "# Clients" + nl +
            "connected_clients:" + clients.connected() + nl +
            "maxclients:" + server.config().maxClients + nl +
            nl + "# Stats" + nl +
            "total_connections_received:" + clients.received() + nl +
            "total_commands_processed:" + clients.commandsProcessed() + nl +
            "filters:" + filters + nl +
            "elements:" + elements + nl +
            "duplicates:" + duplicates + nl +
            "unseen:" + (elements - duplicates) + nl +
            "scaling_filters:" + store.scaling().openCount() + nl +
            "scaling_filter_bytes:" + store.scaling().bytes() + nl +
            nl + "# Keyspace" + nl +
            (store.size() > 0 ? "db0:keys=" + store.size() + ",expires=0,avg_ttl=0" + nl : "") +
            InfoExtras.render(new InfoExtras(server.commands(), store).sections());
    }

    /** @return the line logged once the daemon serves: where, what it holds, and what else listens. */
    String startLine()
    {
        final ServerConfig config = server.config();
        final FilterStore store = server.store();
        final StringBuilder line = new StringBuilder("ddf: serving RESP on ").append(config.bind)
            .append(server.port() < 0 ? " (plain port off)" : ":" + server.port());
        if (server.tlsPort() >= 0)
        {
            line.append(", RESP over TLS on port ").append(server.tlsPort());
        }
        line.append(", data dir ").append(store.dir().toAbsolutePath()).append(", ")
            .append(store.openCount()).append(store.openCount() == 1 ? " filter" : " filters").append(" loaded");
        if (store.skipped() > 0)
        {
            line.append(" (").append(store.skipped()).append(" files skipped)");
        }
        if (server.feedPort() >= 0)
        {
            line.append(", raw feed (").append(config.feedFormat.name().toLowerCase(Locale.ROOT))
                .append(") on port ").append(server.feedPort()).append(" into filter '")
                .append(KeyNames.display(config.feedFilter)).append('\'');
            if (config.forward != null)
            {
                line.append(", unseen records forwarded to ").append(config.forward.getHostString()).append(':')
                    .append(config.forward.getPort());
            }
        }
        if (server.metricsPort() >= 0)
        {
            line.append(", metrics on http://").append(config.metricsBind).append(':').append(server.metricsPort())
                .append("/metrics");
        }
        if (config.requirePass != null)
        {
            line.append(", password required");
        }
        return line.append(server.security().describe()).toString();
    }
}
