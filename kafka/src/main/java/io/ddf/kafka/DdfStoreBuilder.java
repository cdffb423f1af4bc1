package io.ddf.kafka;

import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.state.StoreBuilder;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Builds {@link DdfStore}s for a topology: {@code topology.addStateStore(new DdfStoreBuilder("dedup", spec), ...)}
 * or from a {@code ProcessorSupplier}'s {@code stores()}. The spec is checked here, when the topology is built, so
 * a wrong kind or parameter fails before any task starts, with a message naming the store and the parameter.
 *
 * <p>Logging is on by default, to a compacted changelog topic (the policy is forced: the changelog is one record
 * per word, and only each word's latest value matters). There is no caching layer: the filter is its own
 * in-memory state, so {@link #withCachingEnabled} is refused.
 */
public final class DdfStoreBuilder implements StoreBuilder<DdfStore>
{
    private final String name;
    private final FilterSpec spec;
    private boolean logging = true;
    private ChangelogFormat format = ChangelogFormat.AUTO;
    private Map<String, String> logConfig;

    /**
     * @param name the store's name (also names its changelog topic and its file).
     * @param spec the filter each task holds.
     * @throws IllegalArgumentException when the name is empty or the spec is not a valid filter.
     */
    public DdfStoreBuilder(final String name, final FilterSpec spec)
    {
        if (name == null || name.isEmpty() || !name.matches("[a-zA-Z0-9._-]+"))
        {
            throw new IllegalArgumentException("ddf store name '" + name + "' must be non-empty and use only " +
                "letters, digits, '.', '_' and '-' (it names a topic and a file)");
        }
        this.name = name;
        this.spec = Objects.requireNonNull(spec, "spec");
        spec.validate(name);
        this.logConfig = compacted(Collections.emptyMap());
    }

    /** @return the spec. */
    public FilterSpec spec()
    {
        return spec;
    }

    /**
     * @param changelogFormat what the changelog records ({@link ChangelogFormat#AUTO} by default).
     * @return this.
     * @throws IllegalArgumentException for {@link ChangelogFormat#HASHES} with a kind whose table hashes cannot
     *                                  rebuild, or {@link ChangelogFormat#CALLS} without a window of time.
     */
    public DdfStoreBuilder withChangelogFormat(final ChangelogFormat changelogFormat)
    {
        final ChangelogFormat checked = Objects.requireNonNull(changelogFormat, "changelogFormat");
        try
        {
            checked.resolve(spec.validate(name).kind(), spec.hasTimeWindow());
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("ddf store '" + name + "' (" + spec + "): " + e.getMessage(), e);
        }
        this.format = checked;
        return this;
    }

    /** @return the changelog format. */
    public ChangelogFormat changelogFormat()
    {
        return format;
    }

    @Override
    public DdfStoreBuilder withCachingEnabled()
    {
        throw new UnsupportedOperationException("ddf store '" + name + "' has no cache: its filter is already " +
            "in memory, and a cache would delay verdicts' effects");
    }

    @Override
    public DdfStoreBuilder withCachingDisabled()
    {
        return this;
    }

    @Override
    public DdfStoreBuilder withLoggingEnabled(final Map<String, String> config)
    {
        logging = true;
        logConfig = compacted(config);
        return this;
    }

    @Override
    public DdfStoreBuilder withLoggingDisabled()
    {
        logging = false;
        logConfig = Collections.emptyMap();
        return this;
    }

    @Override
    public DdfStore build()
    {
        return new DdfStore(name, spec, logging, format);
    }

    @Override
    public Map<String, String> logConfig()
    {
        return logConfig;
    }

    @Override
    public boolean loggingEnabled()
    {
        return logging;
    }

    @Override
    public String name()
    {
        return name;
    }

    private Map<String, String> compacted(final Map<String, String> config)
    {
        final String policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        if (policy != null && !TopicConfig.CLEANUP_POLICY_COMPACT.equals(policy))
        {
            throw new IllegalArgumentException("ddf store '" + name + "': the changelog must be compacted, not " +
                TopicConfig.CLEANUP_POLICY_CONFIG + "=" + policy + " (deleting old words would lose state)");
        }
        final Map<String, String> copy = new HashMap<>(config);
        copy.put(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT);
        return Collections.unmodifiableMap(copy);
    }
}
