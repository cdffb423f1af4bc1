package io.ddf.ingest.info;

import io.ddf.ingest.durability.Durability;
import io.ddf.ingest.durability.PersistenceFigures;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.util.function.ToDoubleFunction;

/**
 * The metrics endpoint's durability figures (issue 31): the change log's size and forces, the records a replay would
 * read, the checkpoints, and what start-up replayed; {@code INFO persistence} says the same
 * ({@link Durability#infoLines()}).
 */
final class PersistenceMetrics
{
    private PersistenceMetrics()
    {
    }

    /**
     * @param registry   where to register them.
     * @param durability serve --fsync's log, checkpoints and start-up.
     */
    static void register(final PrometheusRegistry registry, final Durability durability)
    {
        gauge(registry, durability, "ddf_log_bytes", "Bytes of the change log's segment files on disk.",
            PersistenceFigures::logBytes);
        gauge(registry, durability, "ddf_log_segments", "Segment files of the change log.",
            PersistenceFigures::logSegments);
        gauge(registry, durability, "ddf_log_records_since_checkpoint", "32-byte records in the change log after " +
            "the oldest filter checkpoint: what a replay after a power cut reads at most.",
            PersistenceFigures::recordsSinceCheckpoint);
        gauge(registry, durability, "ddf_log_writable", "1 while the change log can be written; 0 while writes are " +
            "refused (a full disk, an I/O error).", f -> f.writable() ? 1 : 0);
        counter(registry, durability, "ddf_log_fsyncs", "Forces of the change log.", PersistenceFigures::forces);
        counter(registry, durability, "ddf_log_fsync_seconds", "Time spent forcing the change log.",
            PersistenceFigures::forceSeconds);
        gauge(registry, durability, "ddf_log_last_fsync_seconds", "The last force of the change log took this long.",
            PersistenceFigures::lastForceSeconds);
        gauge(registry, durability, "ddf_log_max_fsync_seconds", "The longest force of the change log.",
            PersistenceFigures::maxForceSeconds);
        counter(registry, durability, "ddf_log_delayed_fsyncs", "Forces of the change log slower than " +
            "--fsync-warn-ms.", PersistenceFigures::delayedForces);
        counter(registry, durability, "ddf_checkpoints", "Filter checkpoints (pages forced, log position recorded).",
            PersistenceFigures::checkpoints);
        counter(registry, durability, "ddf_checkpoint_failures", "Filter checkpoints that failed.",
            PersistenceFigures::checkpointFailures);
        gauge(registry, durability, "ddf_last_checkpoint_timestamp_seconds", "When the last round of checkpoints " +
            "began, Unix time (0: none yet).", PersistenceFigures::lastCheckpointSeconds);
        gauge(registry, durability, "ddf_last_checkpoint_duration_seconds", "How long the last round of " +
            "checkpoints took.", PersistenceFigures::lastCheckpointDuration);
        gauge(registry, durability, "ddf_replayed_filters", "Filters that replayed the change log at start.",
            PersistenceFigures::replayedFilters);
        gauge(registry, durability, "ddf_replayed_records", "Records replayed at start.",
            PersistenceFigures::replayedRecords);
        gauge(registry, durability, "ddf_replay_seconds", "Time spent replaying at start.",
            PersistenceFigures::replaySeconds);
    }

    private static void gauge(final PrometheusRegistry registry, final Durability durability, final String name,
        final String help, final ToDoubleFunction<PersistenceFigures> value)
    {
        GaugeWithCallback.builder().name(name).help(help)
            .callback(cb -> cb.call(value.applyAsDouble(durability.figures()))).register(registry);
    }

    private static void counter(final PrometheusRegistry registry, final Durability durability, final String name,
        final String help, final ToDoubleFunction<PersistenceFigures> value)
    {
        CounterWithCallback.builder().name(name).help(help)
            .callback(cb -> cb.call(value.applyAsDouble(durability.figures()))).register(registry);
    }
}
