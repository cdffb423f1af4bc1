package io.ddf.ingest.info;

import com.sun.net.httpserver.HttpsConfigurator;
import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.model.LoadPrediction;
import io.ddf.engine.tune.Predictions;
import io.ddf.ingest.config.ServerConfig;
import io.ddf.ingest.dispatch.Command;
import io.ddf.ingest.dispatch.CommandTable;
import io.ddf.ingest.log.OneLine;
import io.ddf.ingest.session.ClientRegistry;
import io.ddf.ingest.store.FilterStore;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.function.BiConsumer;

/**
 * {@code --metrics-port}: the Prometheus endpoint ({@code /metrics}, text format, or protobuf when asked), on
 * its own registry (not the process-wide default, so two daemons in one JVM do not mix). Per filter, of both
 * kinds (the filters that grow, a missing key's by default, and ddf's fixed-size ones): elements
 * ({@code ddf_filter_elements}: streamed into a fixed-size filter, the items held by one that grows) and bytes
 * ({@code ddf_filter_bytes}); per fixed-size filter: duplicates, and the error model's fill, predicted FPR and FNR at
 * the current load; per command: runs, errors and a latency histogram of the time the event loop spent in it
 * (the {@code Command}'s counters).
 * Filter series are read at scrape time, so a deleted filter's series disappear with it.
 */
public final class MetricsEndpoint implements AutoCloseable
{
    /** 1 µs to ~4 s in powers of 4: a command's dispatch is microseconds, a file's creation seconds. */
    private static final double FIRST_BUCKET_SECONDS = 1e-6;
    private static final double BUCKET_FACTOR = 4;
    private static final int BUCKETS = 12;

    private final HTTPServer http;

    private MetricsEndpoint(final HTTPServer http)
    {
        this.http = http;
    }

    /**
     * Registers the metrics and starts serving them.
     *
     * @param config   where to listen.
     * @param store    the filters.
     * @param clients  the connections.
     * @param commands what it serves (each command's counters get a timer feeding the histogram).
     * @param https    the HTTPS configuration ({@code ServerSecurity.metrics()}), or null for plain HTTP.
     * @return the running endpoint.
     * @throws UncheckedIOException when the port cannot be bound.
     */
    public static MetricsEndpoint start(final ServerConfig config, final FilterStore store, final ClientRegistry clients,
        final CommandTable commands, final HttpsConfigurator https)
    {
        final PrometheusRegistry registry = new PrometheusRegistry();
        CounterWithCallback.builder().name("ddf_filter_elements")
            .help("Elements streamed into the filter (a filter that grows: the items it holds).")
            .labelNames("filter").callback(cb ->
            {
                eachFilter(store, (key, f) -> cb.call(f.elements(), key));
                store.scaling().forEach((key, f) -> cb.call(f.items(), key));
            })
            .register(registry);
        CounterWithCallback.builder().name("ddf_filter_duplicates")
            .help("Elements the filter judged duplicate (fixed-size filters: one that grows keeps no such count).")
            .labelNames("filter").callback(cb -> eachFilter(store, (key, f) -> cb.call(f.duplicates(), key)))
            .register(registry);
        GaugeWithCallback.builder().name("ddf_scaling_filter_bytes")
            .help("Bytes of a scaling filter's file (it grows a layer at a time).").labelNames("filter")
            .callback(cb -> store.scaling().forEach((key, f) -> cb.call(f.fileBytes(), key)))
            .register(registry);
        GaugeWithCallback.builder().name("ddf_scaling_filter_items")
            .help("Items a scaling filter holds (BF.INFO's Number of items inserted, CF.INFO's).").labelNames("filter")
            .callback(cb -> store.scaling().forEach((key, f) -> cb.call(f.items(), key)))
            .register(registry);
        GaugeWithCallback.builder().name("ddf_filter_bytes")
            .help("Bytes of the filter's table (a filter that grows: of its file, a layer at a time).")
            .labelNames("filter")
            .callback(cb ->
            {
                eachFilter(store, (key, f) -> cb.call(f.parameters().tableBytes(), key));
                store.scaling().forEach((key, f) -> cb.call(f.fileBytes(), key));
            })
            .register(registry);
        GaugeWithCallback.builder().name("ddf_filter_fill")
            .help("Fraction of the filter's cells in use at the current load (error model; absent without one).")
            .labelNames("filter", "kind")
            .callback(cb -> eachFilter(store, (key, f) -> prediction(f).ifPresent(p ->
                cb.call(p.fill(), key, f.parameters().kind().cliName()))))
            .register(registry);
        GaugeWithCallback.builder().name("ddf_filter_predicted_fpr")
            .help("False positive rate the error model predicts at the current load.")
            .labelNames("filter")
            .callback(cb -> eachFilter(store, (key, f) -> prediction(f).ifPresent(p -> cb.call(p.fpr(), key))))
            .register(registry);
        GaugeWithCallback.builder().name("ddf_filter_predicted_fnr")
            .help("False negative (forgetting) rate the error model predicts at the current load.")
            .labelNames("filter")
            .callback(cb -> eachFilter(store, (key, f) -> prediction(f).ifPresent(p -> cb.call(p.fnr(), key))))
            .register(registry);
        CounterWithCallback.builder().name("ddf_commands").help("Commands run, by name.").labelNames("command")
            .callback(cb -> commands.all().forEach(c ->
            {
                if (c.calls() > 0)
                {
                    cb.call(c.calls(), c.name());
                }
            }))
            .register(registry);
        CounterWithCallback.builder().name("ddf_command_errors")
            .help("Commands refused before running (rejected: wrong arity) or answering an error (failed).")
            .labelNames("command", "reason")
            .callback(cb -> commands.all().forEach(c ->
            {
                if (c.rejectedCalls() > 0)
                {
                    cb.call(c.rejectedCalls(), c.name(), "rejected");
                }
                if (c.failedCalls() > 0)
                {
                    cb.call(c.failedCalls(), c.name(), "failed");
                }
            }))
            .register(registry);
        PersistenceMetrics.register(registry, store.durability());
        GaugeWithCallback.builder().name("ddf_connected_clients").help("RESP connections open.")
            .callback(cb -> cb.call(clients.connected()))
            .register(registry);
        final Histogram latency = Histogram.builder().name("ddf_command_duration_seconds")
            .help("Time the event loop spent in a command (excludes waiting for verdicts or file creation).")
            .labelNames("command").classicOnly()
            .classicExponentialUpperBounds(FIRST_BUCKET_SECONDS, BUCKET_FACTOR, BUCKETS)
            .withoutExemplars().build();
        registry.register(latency);
        // one data point per command, held by the command's own counters: observing looks nothing up
        for (final Command c : commands.all())
        {
            final DistributionDataPoint point = latency.labelValues(c.name());
            c.timer(nanos -> point.observe(nanos / 1e9));
        }
        try
        {
            final HTTPServer.Builder http = HTTPServer.builder().hostname(config.metricsBind)
                .port(config.metricsPort).registry(registry);
            if (https != null)
            {
                http.httpsConfigurator(https);
            }
            return new MetricsEndpoint(http.buildAndStart());
        }
        catch (final IOException e)
        {
            commands.all().forEach(c -> c.timer(null));
            throw new UncheckedIOException(new IOException("cannot listen for metrics on " +
                config.metricsBind + ":" + config.metricsPort + ": " + OneLine.of(e), e));
        }
    }

    /** @return the port bound. */
    public int port()
    {
        return http.getPort();
    }

    private static Optional<LoadPrediction> prediction(final DuplicateFilter filter)
    {
        return Predictions.atCurrentLoad(filter);
    }

    /** Calls {@code each} for every filter, holding the store so that none is closed meanwhile. */
    private static void eachFilter(final FilterStore store, final BiConsumer<String, DuplicateFilter> each)
    {
        final FilterStore.Lease all = store.leaseAll();
        try
        {
            store.snapshot().forEach(each);
        }
        finally
        {
            all.close();
        }
    }

    @Override
    public void close()
    {
        http.close();
    }
}
