package io.ddf.kafka;

import io.ddf.engine.DuplicateFilter;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Value;
import org.apache.kafka.streams.StreamsMetrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A store's figures in Kafka Streams' metrics registry, so they reach JMX (and any metrics reporter) beside the
 * built-in stores': group {@value #GROUP}, tags {@code thread-id}, {@code task-id} and {@code ddf-state-id} (the
 * store's name), as {@code kafka.streams:type=stream-state-metrics,thread-id=...,task-id=...,ddf-state-id=...}.
 *
 * <p>Values are taken at each commit (and when the store opens), not at each record: reading the striped counters
 * costs 16 loads, and a metric that lags by one commit interval is what Kafka Streams' own store metrics do too.
 */
final class StoreMetrics
{
    /** Metric group, as Kafka Streams' own state store metrics. */
    static final String GROUP = "stream-state-metrics";
    /** Tag naming the store, after Kafka Streams' {@code <type>-state-id} tags. */
    static final String STORE_TAG = "ddf-state-id";

    private final StreamsMetrics registry;
    private final Sensor elements;
    private final Sensor duplicates;
    private final Sensor tableBytes;
    private final Sensor changelogRecords;
    private final Sensor changelogBytes;

    StoreMetrics(final StreamsMetrics registry, final String taskId, final String storeName)
    {
        this.registry = registry;
        final Map<String, String> tags = new LinkedHashMap<>();
        tags.put("thread-id", Thread.currentThread().getName());
        tags.put("task-id", taskId);
        tags.put(STORE_TAG, storeName);
        final String prefix = "ddf." + tags.get("thread-id") + "." + taskId + "." + storeName + ".";
        elements = gauge(prefix, "elements", "Elements streamed through the store's filter over its file's lifetime", tags);
        duplicates = gauge(prefix, "duplicates", "Elements judged DUPLICATE over the file's lifetime", tags);
        tableBytes = gauge(prefix, "table-bytes", "Bytes of the filter's table (its file is 4 KiB more)", tags);
        changelogRecords = gauge(prefix, "changelog-records", "Changelog records this store instance has written", tags);
        changelogBytes = gauge(prefix, "changelog-bytes", "Their key and value bytes", tags);
    }

    private Sensor gauge(final String prefix, final String name, final String description, final Map<String, String> tags)
    {
        final Sensor sensor = registry.addSensor(prefix + name, Sensor.RecordingLevel.INFO);
        sensor.add(new MetricName(name, GROUP, description, tags), new Value());
        return sensor;
    }

    void record(final DuplicateFilter filter, final long loggedRecords, final long loggedBytes)
    {
        changelogBytes.record(loggedBytes);
        elements.record(filter.elements());
        duplicates.record(filter.duplicates());
        tableBytes.record(filter.parameters().tableBytes());
        changelogRecords.record(loggedRecords);
    }

    void close()
    {
        registry.removeSensor(elements);
        registry.removeSensor(duplicates);
        registry.removeSensor(tableBytes);
        registry.removeSensor(changelogRecords);
        registry.removeSensor(changelogBytes);
    }
}
