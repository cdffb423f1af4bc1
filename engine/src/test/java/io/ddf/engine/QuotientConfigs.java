package io.ddf.engine;

import java.util.List;

/** Contract-test configurations of QHT, QHTD, QQHTD and SQF: capacity is the number of rows. */
final class QuotientConfigs
{
    private QuotientConfigs()
    {
    }

    static List<FilterConfigs.Config> list()
    {
        return List.of(
            config("qht k=4 s=16 (narrow)", rows -> qht(FilterKind.QHT, rows, 4, 16)),
            config("qht k=3 s=5 (narrow, 4 rows/word)", rows -> qht(FilterKind.QHT, rows, 3, 5)),
            config("qht k=16 s=6 (wide)", rows -> qht(FilterKind.QHT, rows, 16, 6)),
            config("qht keyed k=4 s=12", rows -> qht(FilterKind.QHT, rows, 4, 12).keyed(true)),
            config("qhtd k=4 s=16 (narrow)", rows -> qht(FilterKind.QHTD, rows, 4, 16)),
            config("qhtd k=12 s=8 (wide)", rows -> qht(FilterKind.QHTD, rows, 12, 8)),
            config("qqhtd k=4 s=16 (narrow)", rows -> qht(FilterKind.QQHTD, rows, 4, 16)),
            config("qqhtd k=10 s=10 (wide)", rows -> qht(FilterKind.QQHTD, rows, 10, 10)),
            config("sqf k=4 r=16 r'=8 (narrow)", rows -> sqf(rows, 4, 16, 8)),
            config("sqf k=3 r=4 r'=2 (narrow)", rows -> sqf(rows, 3, 4, 2)),
            config("sqf k=8 r=20 r'=8 (wide)", rows -> sqf(rows, 8, 20, 8)));
    }

    private static FilterConfigs.Config config(final String name, final java.util.function.LongFunction<FilterBuilder> b)
    {
        return new FilterConfigs.Config(name, b, 0.0, true);
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
