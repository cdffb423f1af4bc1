package io.ddf.ingest.commands.redisbloom;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.FilterKind;
import io.ddf.engine.FilterParameters;
import io.ddf.engine.TimeWindow;
import io.ddf.engine.model.LoadPrediction;
import io.ddf.engine.tune.Predictions;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.ReservedCapacity;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * BF.INFO's fields, as plain values (Long, String, or null for RedisBloom's nil), so that any protocol encoder can
 * send them: RedisBloom's five (Capacity, Size, Number of filters, Number of items inserted, Expansion rate), then
 * ddf's: elements and duplicates streamed, and the error models' view of the current load ({@link Predictions}:
 * fill, predicted-fpr, predicted-fnr; nil for a kind without such a model), then, for a fifo-bloom with a window of
 * time, the window ({@link #window}), then the filter's parameters.
 */
final class BloomInfo
{
    private BloomInfo()
    {
    }

    /**
     * @param filter an open filter.
     * @return every field, in order.
     */
    static List<Map.Entry<String, Object>> fields(final DuplicateFilter filter)
    {
        final FilterParameters parameters = filter.parameters();
        final List<Map.Entry<String, Object>> fields = new ArrayList<>();
        fields.add(entry("Capacity", ReservedCapacity.of(parameters)));
        fields.add(entry("Size", parameters.tableBytes()));
        fields.add(entry("Number of filters", filters(parameters)));
        fields.add(entry("Number of items inserted", filter.elements() - filter.duplicates()));
        fields.add(entry("Expansion rate", null));
        fields.add(entry("elements", filter.elements()));
        fields.add(entry("duplicates", filter.duplicates()));
        final Optional<LoadPrediction> prediction = Predictions.atCurrentLoad(filter);
        fields.add(entry("fill", prediction.map(p -> rate(p.fill())).orElse(null)));
        fields.add(entry("predicted-fpr", prediction.map(p -> rate(p.fpr())).orElse(null)));
        fields.add(entry("predicted-fnr", prediction.map(p -> rate(p.fnr())).orElse(null)));
        filter.timeWindow().ifPresent(w -> window(fields, w));
        for (final Map.Entry<String, String> e : parameters.toMap().entrySet())
        {
            fields.add(entry(e.getKey(), e.getValue()));
        }
        return fields;
    }

    /**
     * A window of time's fields (the parameters after them say the window and its slices): the window in seconds, as
     * WINDOW takes it, a slice, when an item is forgotten at the latest, the filter's time, and what the window did:
     * its turns, the generations expired (and those the last start expired, with how long the daemon was stopped),
     * and those recycled early (more than the capacity came within a window: items forgotten inside their window).
     */
    private static void window(final List<Map.Entry<String, Object>> fields, final TimeWindow w)
    {
        fields.add(entry("window-seconds", w.window().toSeconds()));
        fields.add(entry("slice", TimeWindow.format(w.slice())));
        fields.add(entry("forgotten-by", TimeWindow.format(w.window().plus(w.slice()))));
        fields.add(entry("filter-time", w.filterTimeMillis() < 0 ? null :
            java.time.Instant.ofEpochMilli(w.filterTimeMillis()).toString()));
        fields.add(entry("turns-by-time", w.turnsByTime()));
        fields.add(entry("turns-by-count", w.turnsByCount()));
        fields.add(entry("expired", w.expired()));
        fields.add(entry("recycled-early", w.recycledEarly()));
        fields.add(entry("expired-at-open", w.atOpen().expiredGenerations()));
        fields.add(entry("at-open", w.atOpen().describe()));
    }

    /**
     * @param filter an open filter.
     * @param name   RedisBloom's field name: CAPACITY, SIZE, FILTERS, ITEMS or EXPANSION, any case; or ddf's
     *               WINDOW (seconds, nil without a window of time) or SLICES.
     * @return its value.
     * @throws RespError RedisBloom's error for any other name.
     */
    static Object field(final DuplicateFilter filter, final String name)
    {
        final FilterParameters parameters = filter.parameters();
        return switch (name.toLowerCase(Locale.ROOT))
        {
            case "capacity" -> ReservedCapacity.of(parameters);
            case "size" -> parameters.tableBytes();
            case "filters" -> filters(parameters);
            case "items" -> filter.elements() - filter.duplicates();
            case "expansion" -> null;
            case "window" -> filter.timeWindow().map(w -> (Object)w.window().toSeconds()).orElse(null);
            case "slices" -> filter.timeWindow().map(w -> (Object)(long)w.slices()).orElse(null);
            default -> throw new RespError("ERR Invalid information value");
        };
    }

    /** Sub-filters: a fifo-bloom's generations, else 1. */
    private static long filters(final FilterParameters parameters)
    {
        return parameters.kind() == FilterKind.FIFO_BLOOM ? parameters.get("generations") : 1;
    }

    private static String rate(final double value)
    {
        return String.format(Locale.ROOT, "%.6g", value);
    }

    private static Map.Entry<String, Object> entry(final String name, final Object value)
    {
        return new AbstractMap.SimpleEntry<>(name, value);
    }
}
