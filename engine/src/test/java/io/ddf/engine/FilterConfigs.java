package io.ddf.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * The filter configurations every contract test runs over: each kind, in narrow (one CAS per row) and wide
 * (row lock) layouts, unkeyed and keyed.
 */
final class FilterConfigs
{
    private FilterConfigs()
    {
    }

    /** A named way to build a filter of a given number of rows into a given file (null for anonymous). */
    record Config(String name, Function<Long, FilterBuilder> builder)
    {
        FilterBuilder build(final long rows, final Path file)
        {
            return builder.apply(rows).file(file);
        }

        @Override
        public String toString()
        {
            return name;
        }
    }

    static List<Config> all()
    {
        return List.of(
            new Config("qht k=4 s=16 (narrow)", rows -> qht(FilterKind.QHT, rows, 4, 16)),
            new Config("qht k=3 s=5 (narrow, 4 rows/word)", rows -> qht(FilterKind.QHT, rows, 3, 5)),
            new Config("qht k=16 s=6 (wide)", rows -> qht(FilterKind.QHT, rows, 16, 6)),
            new Config("qht keyed k=4 s=12", rows -> qht(FilterKind.QHT, rows, 4, 12).keyed(true)),
            new Config("qhtd k=4 s=16 (narrow)", rows -> qht(FilterKind.QHTD, rows, 4, 16)),
            new Config("qhtd k=12 s=8 (wide)", rows -> qht(FilterKind.QHTD, rows, 12, 8)),
            new Config("qqhtd k=4 s=16 (narrow)", rows -> qht(FilterKind.QQHTD, rows, 4, 16)),
            new Config("qqhtd k=10 s=10 (wide)", rows -> qht(FilterKind.QQHTD, rows, 10, 10)),
            new Config("sqf k=4 r=16 r'=8 (narrow)", rows -> sqf(rows, 4, 16, 8)),
            new Config("sqf k=3 r=4 r'=2 (narrow)", rows -> sqf(rows, 3, 4, 2)),
            new Config("sqf k=8 r=20 r'=8 (wide)", rows -> sqf(rows, 8, 20, 8)));
    }

    private static FilterBuilder qht(final FilterKind kind, final long rows, final int k, final int s)
    {
        return Filters.builder(kind).rows(rows).buckets(k).fingerprintBits(s).seed(rows * 31 + k);
    }

    private static FilterBuilder sqf(final long rows, final int k, final int r, final int rr)
    {
        return Filters.builder(FilterKind.SQF).rows(rows).buckets(k).remainderBits(r).reducedBits(rr).seed(rows + r);
    }
}
